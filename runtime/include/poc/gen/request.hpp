#pragma once
/// \file
/// Server side of a remote call, in the shape poc++ generates
/// (docs/runtime.md section 3.3): `T_server::dispatch` switches on the method
/// id and calls `rq.invoke(self, &T::f)`; `T_server::construct` calls
/// `rq.construct<T, Params...>()`.

#include <poc/gen/arguments.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

namespace poc {

namespace detail {
/// Sends the reply of a request being served (implemented by the runtime).
class Responder {
public:
  virtual void respond(Writer &reply) = 0;

protected:
  ~Responder() = default;
};

/// Calls the member function `*fn` (of type F, on class C) on `object`.
template <class F, class C, class R, class... P>
R call_member(void *object, const void *fn, P &&...a) {
  return (static_cast<C *>(object)->*(*static_cast<const F *>(fn)))(static_cast<P &&>(a)...);
}
/// Constructs a T from the decoded parameters into `*out`.
template <class T, class... P> void make_object(void *out, P &&...a) {
  *static_cast<T **>(out) = new T(static_cast<P &&>(a)...);
}

template <class R, class... P> struct Serve;
} // namespace detail

/// A request being served on the target process's thread: its arguments
/// (a Reader) and its reply (a Writer).
class Request {
public:
  Request(Reader &args, Writer &reply, detail::Responder *responder = nullptr) noexcept
      : args_(&args), reply_(&reply), responder_(responder) {}

  /// Decodes the parameters of `fn`, calls `(self.*fn)(params...)` (virtually
  /// if `fn` is virtual), then encodes the copy-backs of non-const reference
  /// and pointer parameters in order, then the result. The work is done once
  /// per signature `R(P...)`, out of line (detail::Serve), so a server with
  /// many methods compiles to a switch of calls.
  template <class Self, class C, class R, class... P> void invoke(Self &self, R (C::*fn)(P...)) {
    serve<C, R, P...>(self, fn);
  }
  /// Same for const methods.
  template <class Self, class C, class R, class... P>
  void invoke(Self &self, R (C::*fn)(P...) const) {
    serve<C, R, P...>(self, fn);
  }
  /// Same for noexcept methods.
  template <class Self, class C, class R, class... P>
  void invoke(Self &self, R (C::*fn)(P...) noexcept) {
    serve<C, R, P...>(self, fn);
  }
  /// Same for const noexcept methods.
  template <class Self, class C, class R, class... P>
  void invoke(Self &self, R (C::*fn)(P...) const noexcept) {
    serve<C, R, P...>(self, fn);
  }

  /// Decodes constructor parameters of types `P...` and returns `new T(...)`
  /// (the decoding is shared by every constructor of that signature).
  template <class T, class... P> T *construct() {
    T *made = nullptr;
    detail::Serve<void, P...>::construct(*this, &made, &detail::make_object<T, P...>);
    return made;
  }

  /// Reports a method or constructor id the class does not have (a client
  /// compiled from other sources: another declaration of the method, or
  /// another layout of a class its arguments or result carry, docs/runtime.md
  /// section 3.1): throws protocol_error naming the class, which the caller
  /// receives as remote_error.
  [[noreturn]] void unknown_method(std::uint64_t id, const char *class_name = nullptr);

  /// Sends the reply now, while the data its out-of-band blocks point to is
  /// alive (invoke does this itself; the runtime calls it after dispatch if
  /// nobody did). Only the first call sends.
  void finish_reply();

  /// The undecoded arguments (for hand-written protocols).
  Reader &args() noexcept { return *args_; }
  /// The reply being built (for hand-written protocols).
  Writer &reply() noexcept { return *reply_; }

private:
  template <class R, class... P> friend struct detail::Serve;

  template <class C, class R, class... P, class Self, class F> void serve(Self &self, F fn) {
    C &object = self;
    detail::Serve<R, P...>::run(*this, static_cast<void *>(std::addressof(object)), &fn,
                                &detail::call_member<F, C, R, P...>);
  }

  Reader *args_;
  Writer *reply_;
  detail::Responder *responder_;
  bool replied_ = false;
};

namespace detail {

/// One decoded parameter of a request; `I` tells equal types apart.
template <std::size_t I, class P> struct ArgSlot {
  ParamSlot<P> slot;
};
template <class Indices, class... P> struct ArgSlots;
/// The decoded parameters of a request.
template <std::size_t... I, class... P>
struct ArgSlots<std::index_sequence<I...>, P...> : ArgSlot<I, P>... {};

/// Serving a request for a method of signature `R(P...)`, whatever its class:
/// decoding, the call (through a function that knows the class), copy-backs,
/// result and reply. Out of line, once per signature.
template <class R, class... P> struct Serve {
  using Slots = ArgSlots<std::index_sequence_for<P...>, P...>;
  using Caller = R (*)(void *object, const void *fn, P &&...a);
  using Maker = void (*)(void *out, P &&...a);

  [[gnu::noinline]] static void run(Request &rq, void *object, const void *fn, Caller call) {
    run_with(rq, object, fn, call, std::index_sequence_for<P...>{});
  }
  [[gnu::noinline]] static void construct(Request &rq, void *out, Maker make) {
    construct_with(rq, out, make, std::index_sequence_for<P...>{});
  }

private:
  template <std::size_t... I>
  static void run_with(Request &rq, void *object, const void *fn, Caller call,
                       std::index_sequence<I...>) {
    [[maybe_unused]] Slots s; // unused for a method without parameters
    (static_cast<ArgSlot<I, P> &>(s).slot.read(*rq.args_), ...);
    rq.args_->expect_end();
    if constexpr (std::is_void_v<R>) {
      call(object, fn, static_cast<ArgSlot<I, P> &>(s).slot.get()...);
      (write_back(rq, static_cast<ArgSlot<I, P> &>(s).slot), ...);
      rq.finish_reply();
    } else {
      std::remove_cvref_t<R> result =
          call(object, fn, static_cast<ArgSlot<I, P> &>(s).slot.get()...);
      (write_back(rq, static_cast<ArgSlot<I, P> &>(s).slot), ...);
      rq.reply_->write(result);
      rq.finish_reply(); // while the result, which large blocks point into, lives
    }
  }
  template <std::size_t... I>
  static void construct_with(Request &rq, void *out, Maker make, std::index_sequence<I...>) {
    [[maybe_unused]] Slots s; // unused for a method without parameters
    (static_cast<ArgSlot<I, P> &>(s).slot.read(*rq.args_), ...);
    rq.args_->expect_end();
    make(out, static_cast<ArgSlot<I, P> &>(s).slot.get()...);
  }
  template <class S> static void write_back(Request &rq, const S &slot) {
    if constexpr (S::copies_back)
      slot.write_back(*rq.reply_);
  }
};
} // namespace detail

} // namespace poc
