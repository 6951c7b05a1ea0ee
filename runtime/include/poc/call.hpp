#pragma once
/// \file
/// Client side of a remote call, in the shape poc++ generates
/// (docs/runtime.md section 3.2):
/// ```
/// ::poc::Call call(self, id); call.args(a, b);
/// auto reply = call.invoke_reply(); reply.copy_back(b); return reply.result<R>();
/// ```

#include <poc/arguments.hpp>
#include <poc/future.hpp>
#include <poc/transport.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace poc {

/// The reply to a synchronous call: copy-backs first, then the result.
class Reply {
public:
  explicit Reply(detail::MessagePtr m)
      : msg_(std::move(m)), reader_(msg_->payload(), msg_.get()) {}

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

/// One request to the process `target` refers to.
class Call {
public:
  /// Starts a request for method `method` (see method_id()) of the process
  /// `target` refers to; `target` must be a remote reference.
  Call(const void *target, std::uint64_t method) : target_(target), method_(method) {
    detail::begin_message(writer_);
  }
  Call(const Call &) = delete;
  Call &operator=(const Call &) = delete;

  /// Serialises the arguments, in parameter order, as the parameter types
  /// (see <poc/arguments.hpp>; wrap POC_COUNT pointers in poc::counted).
  template <class... A> Call &args(const A &...a) {
    (detail::ArgCodec<A>::write(writer_, a), ...);
    return *this;
  }

  /// Sends the request and waits for the reply; throws remote_error if the
  /// method threw.
  Reply invoke_reply() { return Reply(detail::call_sync(target_, method_, writer_)); }

  /// invoke_reply().result<R>() for calls without copy-backs.
  template <class R = void> R invoke() { return invoke_reply().template result<R>(); }

  /// Sends the request as a started call: returns at once; completion and
  /// errors are reported by the caller's next poc::sync().
  void start() { detail::call_start(target_, method_, writer_); }

  /// Sends the request as a started call whose result (or error) arrives in
  /// the returned future.
  template <class R> future<R> start_future() {
    return future<R>(std::make_shared<detail::ReplyState<R>>(
        detail::call_start_future(target_, method_, writer_)));
  }

  /// The request being built (for hand-written protocols).
  Writer &writer() noexcept { return writer_; }

private:
  const void *target_;
  std::uint64_t method_;
  Writer writer_;
};

} // namespace poc
