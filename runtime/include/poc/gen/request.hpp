#pragma once
/// \file
/// Server side of a remote call, in the shape poc++ generates
/// (docs/runtime.md section 3.3): `T_server::dispatch` switches on the method
/// id and calls `rq.invoke(self, &T::f)`; `T_server::construct` calls
/// `rq.construct<T, Params...>()`.

#include <poc/gen/arguments.hpp>

#include <cstdint>
#include <tuple>
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
} // namespace detail

/// A request being served on the target process's thread: its arguments
/// (a Reader) and its reply (a Writer).
class Request {
public:
  Request(Reader &args, Writer &reply, detail::Responder *responder = nullptr) noexcept
      : args_(&args), reply_(&reply), responder_(responder) {}

  /// Decodes the parameters of `fn`, calls `(self.*fn)(params...)` (virtually
  /// if `fn` is virtual), then encodes the copy-backs of non-const reference
  /// and pointer parameters in order, then the result.
  template <class Self, class C, class R, class... P> void invoke(Self &self, R (C::*fn)(P...)) {
    run<R, P...>([&](auto &&...a) -> R { return (self.*fn)(static_cast<decltype(a)>(a)...); });
  }
  /// Same for const methods.
  template <class Self, class C, class R, class... P>
  void invoke(Self &self, R (C::*fn)(P...) const) {
    run<R, P...>([&](auto &&...a) -> R { return (self.*fn)(static_cast<decltype(a)>(a)...); });
  }
  /// Same for noexcept methods.
  template <class Self, class C, class R, class... P>
  void invoke(Self &self, R (C::*fn)(P...) noexcept) {
    run<R, P...>([&](auto &&...a) -> R { return (self.*fn)(static_cast<decltype(a)>(a)...); });
  }
  /// Same for const noexcept methods.
  template <class Self, class C, class R, class... P>
  void invoke(Self &self, R (C::*fn)(P...) const noexcept) {
    run<R, P...>([&](auto &&...a) -> R { return (self.*fn)(static_cast<decltype(a)>(a)...); });
  }

  /// Decodes constructor parameters of types `P...` and returns `new T(...)`.
  template <class T, class... P> T *construct() {
    std::tuple<detail::ParamSlot<P>...> slots;
    std::apply([&](auto &...s) { (s.read(*args_), ...); }, slots);
    args_->expect_end();
    return std::apply([](auto &...s) { return new T(s.get()...); }, slots);
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
  template <class R, class... P, class F> void run(F &&f) {
    std::tuple<detail::ParamSlot<P>...> slots;
    std::apply([&](auto &...s) { (s.read(*args_), ...); }, slots);
    args_->expect_end();
    if constexpr (std::is_void_v<R>) {
      std::apply([&](auto &...s) { f(s.get()...); }, slots);
      write_backs(slots);
      finish_reply();
    } else {
      std::remove_cvref_t<R> result =
          std::apply([&](auto &...s) -> R { return f(s.get()...); }, slots);
      write_backs(slots);
      reply_->write(result);
      finish_reply();
    }
  }

  template <class... S> void write_backs(const std::tuple<S...> &slots) {
    std::apply(
        [&](const auto &...s) {
          (
              [&] {
                if constexpr (std::remove_cvref_t<decltype(s)>::copies_back)
                  s.write_back(*reply_);
              }(),
              ...);
        },
        slots);
  }

  Reader *args_;
  Writer *reply_;
  detail::Responder *responder_;
  bool replied_ = false;
};

} // namespace poc
