#pragma once
/// \file
/// Client side of a remote call, in the shape poc++ generates
/// (docs/runtime.md section 3.2):
/// ```
/// ::poc::Call call(self, id); call.args(a, b);
/// auto reply = call.invoke_reply(); reply.copy_back(b); return reply.result<R>();
/// ```

#include <poc/future.hpp>
#include <poc/gen/arguments.hpp>
#include <poc/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

namespace poc {

/// The reply to a synchronous call: copy-backs first, then the result.
class Reply {
public:
  explicit Reply(detail::MessagePtr m)
      : msg_(std::move(m)), reader_(detail::body_of(*msg_), &detail::blocks_of(*msg_)) {}

  /// Writes the server's copies of the non-const reference and pointer
  /// arguments back into `a...` (pass exactly those, in parameter order).
  template <class... A> void copy_back(A &&...a) {
    (detail::ArgCodec<std::remove_cvref_t<A>>::read_back(reader_, a), ...);
  }

  /// The method's result (nothing for void); checks that the reply has been
  /// consumed completely.
  template <class R = void> R result() {
    if constexpr (std::is_void_v<R>) {
      reader_.expect_end();
    } else {
      R value = reader_.template read<std::remove_cvref_t<R>>();
      reader_.expect_end();
      return value;
    }
  }

  /// The undecoded rest of the reply (for hand-written protocols).
  Reader &reader() noexcept { return reader_; }

private:
  detail::MessagePtr msg_;
  Reader reader_;
};

namespace detail {

/// How a copy-back target is kept until the reply arrives: pointers (and
/// `counted` ranges) by value, because read_back writes through them and a
/// wrapper's pointer parameter is gone by then; everything else as a
/// reference to the caller's object.
template <class A>
using copy_back_target_t =
    std::conditional_t<std::is_lvalue_reference_v<A> && !std::is_pointer_v<std::remove_cvref_t<A>>,
                       A, std::remove_cvref_t<A>>;

/// The reply of a started call whose non-const reference and pointer
/// arguments are copied back: the first wait() or get() takes the reply and
/// writes the copies into the caller's arguments, in the waiting thread, so
/// nothing writes into the caller's memory while it may be using it.
template <class R, class... A> class CopyBackState final : public FutureState<R> {
public:
  CopyBackState(std::shared_ptr<ReplySlot> slot, A... targets)
      : slot_(std::move(slot)), targets_(targets...) {}
  bool ready() override { return reply_ || error_ || reply_ready(*slot_); }
  /// Applies the copy-backs; an error is kept for get(), as a wait() on a
  /// std::future does not throw.
  void wait() override {
    try {
      take();
    } catch (...) {
      error_ = std::current_exception();
    }
  }
  R get() override {
    if (error_)
      std::rethrow_exception(error_);
    take();
    return reply_->template result<R>();
  }

private:
  void take() {
    if (reply_)
      return;
    reply_.emplace(reply_take(*slot_));
    std::apply([this](auto &...t) { reply_->copy_back(t...); }, targets_);
  }

  std::shared_ptr<ReplySlot> slot_;
  std::tuple<A...> targets_;
  std::optional<Reply> reply_;
  std::exception_ptr error_;
};

} // namespace detail

/// One request to the process `target` refers to.
class Call {
public:
  /// Starts a request for method `method` (see method_id()) of the process
  /// `target` refers to; `target` must be a remote reference. `what` names
  /// the method ("ns::T::f", a string literal) in the error of a call to a
  /// process that has ended, and in the trace of a run (POC_TRACE). Out of
  /// line, like ~Call: a client wrapper is then calls only.
  [[gnu::noinline]] Call(const void *target, std::uint64_t method, const char *what = nullptr)
      : target_(target), method_(method), what_(what) {
    detail::begin_message(writer_);
  }
  /// Out of line, for the same reason as invoke().
  [[gnu::noinline]] ~Call() = default;
  Call(const Call &) = delete;
  Call &operator=(const Call &) = delete;

  /// Serialises the arguments, in parameter order, as the parameter types
  /// (see <poc/gen/arguments.hpp>; wrap POC_COUNT pointers in poc::counted).
  /// An argument given as an rvalue (poc++ moves a started call's by-value
  /// arguments of class type) whose encoding has out-of-band blocks is
  /// moved into the request, which keeps it until those blocks are sent:
  /// a started call then sends it from where it lies instead of copying it.
  template <class... A> Call &args(A &&...a) {
    (write_arg(std::forward<A>(a)), ...);
    return *this;
  }

  /// Sends the request and waits for the reply; throws remote_error if the
  /// method threw.
  Reply invoke_reply() { return Reply(detail::call_sync(target_, method_, writer_, what_)); }

  /// invoke_reply().result<R>() for calls without copy-backs. Out of line,
  /// once per result type, so that a client wrapper is a call and not the
  /// reply's decoding and destruction.
  template <class R = void> [[gnu::noinline]] R invoke() {
    return invoke_reply().template result<R>();
  }

  /// Sends the request as a started call: returns at once; completion and
  /// errors are reported by the caller's next poc::sync().
  void start() { detail::call_start(target_, method_, writer_, what_); }

  /// Sends the request as a started call whose result (or error) arrives in
  /// the returned future.
  template <class R> future<R> start_future() {
    return future<R>(std::make_shared<detail::ReplyState<R>>(
        detail::call_start_future(target_, method_, writer_, what_)));
  }

  /// start_future<R>() for a method with non-const reference or pointer
  /// parameters: `copy_backs` are those arguments (as for Reply::copy_back),
  /// written back when the future is first waited for (wait(), get(), or
  /// through then()/when_all()), in the waiting thread. References must
  /// outlive that moment; until then the arguments keep their old values.
  template <class R, class... A> future<R> start_future(A &&...copy_backs) {
    using State = detail::CopyBackState<R, detail::copy_back_target_t<A>...>;
    return future<R>(
        std::make_shared<State>(detail::call_start_future(target_, method_, writer_, what_),
                                std::forward<A>(copy_backs)...));
  }

  /// The request being built (for hand-written protocols).
  Writer &writer() noexcept { return writer_; }

private:
  template <class A> void write_arg(A &&a) {
    using D = std::remove_cvref_t<A>;
    if constexpr (std::is_lvalue_reference_v<A> || !std::is_class_v<D> ||
                  std::is_trivially_copyable_v<D>) {
      detail::ArgCodec<D>::write(writer_, a);
    } else {
      const std::size_t size = writer_.size(), blocks = writer_.out_of_band().size();
      detail::ArgCodec<D>::write(writer_, a);
      if (writer_.out_of_band().size() == blocks)
        return; // all in the message: nothing to keep
      // Encoded again from the moved value, which a move may have left
      // elsewhere than the blocks first recorded.
      writer_.truncate(size, blocks);
      writer_.write_kept(std::shared_ptr<const D>(std::make_shared<D>(std::move(a))));
    }
  }

  const void *target_;
  std::uint64_t method_;
  const char *what_;
  Writer writer_;
};

} // namespace poc
