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
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace poc {

class Request;

namespace detail {
/// Sends the reply of a request being served (implemented by the runtime).
class Responder {
public:
  virtual void respond(Writer &reply) = 0;

protected:
  ~Responder() = default;
};

/// Runs the call or construction of a request whose parameters are decoded
/// into `slots` (see Serve).
using SlotsCall = void (*)(Request &rq, void *target, const void *fn, void *const *slots);
struct Serve;
} // namespace detail

/// A request being served on the target process's thread: its arguments
/// (a Reader) and its reply (a Writer).
class Request {
public:
  Request(Reader &args, Writer &reply, detail::Responder *responder = nullptr) noexcept
      : args_(&args), reply_(&reply), responder_(responder) {}

  /// Decodes the parameters of `fn`, calls `(self.*fn)(params...)` (virtually
  /// if `fn` is virtual), then encodes the copy-backs of non-const reference
  /// and pointer parameters in order, then the result. The decoding is one
  /// out-of-line function for every signature (detail::Serve), driven by
  /// functions compiled once per parameter type; only the call, the
  /// copy-backs and the result are compiled per member function type, so a
  /// server with many methods compiles to a switch of calls.
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
  template <class T, class... P> T *construct();

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
  friend struct detail::Serve;

  template <class C, class R, class... P, class Self, class F> void serve(Self &self, F fn);

  Reader *args_;
  Writer *reply_;
  detail::Responder *responder_;
  bool replied_ = false;
};

namespace detail {

/// The parameter type whose ParamSlot decodes a parameter of type `P`:
/// parameters that decode alike (`T`, `const T &`, `T &&`) share one, so
/// their slots' functions are compiled once. Pointers, non-const lvalue
/// references (which copy back) and `const std::vector<T> &` of bitwise
/// elements (a slot of its own, see ParamSlot) keep their type.
template <class P> struct SlotParam {
  using V = std::remove_cvref_t<P>;
  using type =
      std::conditional_t<std::is_pointer_v<V> || (std::is_lvalue_reference_v<P> &&
                                                  !std::is_const_v<std::remove_reference_t<P>>),
                         P, V>;
};
template <class T, class A>
  requires is_bitwise_serializable_v<T>
struct SlotParam<const std::vector<T, A> &> {
  using type = const std::vector<T, A> &;
};
/// The ParamSlot a parameter of type `P` is decoded into.
template <class P> using SlotOf = ParamSlot<typename SlotParam<P>::type>;

/// The server's handling of one kind of ParamSlot, compiled once per slot
/// type and shared by every signature with such a parameter.
struct ParamOps {
  std::size_t size;
  std::size_t align;
  void (*construct)(void *slot);
  void (*read)(void *slot, Reader &r);
  /// Null for a parameter that does not copy back.
  void (*write_back)(const void *slot, Writer &w);
  void (*destroy)(void *slot) noexcept;
};

/// The ParamOps of ParamSlot type `Slot`.
template <class Slot> struct SlotOps {
  static void construct(void *slot) { ::new (slot) Slot; }
  static void read(void *slot, Reader &r) { static_cast<Slot *>(slot)->read(r); }
  static void write_back(const void *slot, Writer &w) {
    static_cast<const Slot *>(slot)->write_back(w);
  }
  static void destroy(void *slot) noexcept { static_cast<Slot *>(slot)->~Slot(); }
  static constexpr auto write_back_of() noexcept {
    if constexpr (Slot::copies_back)
      return &write_back;
    else
      return static_cast<void (*)(const void *, Writer &)>(nullptr);
  }
  static constexpr ParamOps ops{sizeof(Slot), alignof(Slot),   &construct,
                                &read,        write_back_of(), &destroy};
};

/// The parameters of a signature `R(P...)`, for Serve (one more entry, so
/// that a signature without parameters has an array too).
template <class... P>
inline constexpr const ParamOps *param_ops[] = {&SlotOps<SlotOf<P>>::ops..., nullptr};

/// Memory for the parameter slots of one request: on the stack unless they
/// need more.
class SlotFrame {
public:
  SlotFrame(std::size_t size, std::size_t align)
      : data_(size <= sizeof(local_) && align <= alignof(std::max_align_t)
                  ? static_cast<void *>(local_)
                  : ::operator new(size, std::align_val_t(align))),
        align_(align) {}
  ~SlotFrame() {
    if (data_ != local_)
      ::operator delete(data_, std::align_val_t(align_));
  }
  SlotFrame(const SlotFrame &) = delete;
  SlotFrame &operator=(const SlotFrame &) = delete;
  unsigned char *data() const noexcept { return static_cast<unsigned char *>(data_); }

private:
  alignas(std::max_align_t) unsigned char local_[512];
  void *data_;
  std::size_t align_;
};

/// Keeps Clang's optimizer from making a copy of a function for each
/// constant argument it is called with (function specialization): Serve::run
/// is meant to be compiled once.
#if __has_cpp_attribute(clang::minsize)
#define POC_SERVE_ONE_COPY [[clang::minsize]]
#else
#define POC_SERVE_ONE_COPY
#endif

/// Serving a request, whatever the method's signature and class: its
/// parameters are decoded into ParamSlots through their ParamOps, then a
/// function compiled per member function type (or constructed class) makes
/// the call, copies back and replies. The decoding is one out-of-line
/// function for every signature, so a server of many methods compiles to
/// a switch of calls and one small function per member function type.
struct Serve {
  /// Decodes `count` parameters handled by `params` into slots, checks that
  /// the arguments end there, and runs `call(rq, target, fn, slots)`; the
  /// slots are destroyed afterwards, in reverse order, also if anything
  /// throws.
  [[gnu::noinline]] POC_SERVE_ONE_COPY static void run(Request &rq, const ParamOps *const *params,
                                                       std::size_t count, void *target,
                                                       const void *fn, SlotsCall call) {
    auto align_up = [](std::size_t at, std::size_t align) {
      return (at + align - 1) / align * align;
    };
    // The frame holds the slots' addresses, then the slots.
    std::size_t size = count * sizeof(void *);
    std::size_t align = alignof(void *);
    for (std::size_t i = 0; i < count; ++i) {
      size = align_up(size, params[i]->align) + params[i]->size;
      align = params[i]->align > align ? params[i]->align : align;
    }
    SlotFrame frame(size, align);
    void **slots = reinterpret_cast<void **>(frame.data());
    std::size_t at = count * sizeof(void *);
    for (std::size_t i = 0; i < count; ++i) {
      at = align_up(at, params[i]->align);
      slots[i] = frame.data() + at;
      at += params[i]->size;
    }
    struct Constructed {
      const ParamOps *const *params;
      void *const *slots;
      std::size_t count = 0;
      ~Constructed() {
        while (count > 0) {
          --count;
          params[count]->destroy(slots[count]);
        }
      }
    } constructed{params, slots};
    for (; constructed.count < count; ++constructed.count)
      params[constructed.count]->construct(slots[constructed.count]);
    for (std::size_t i = 0; i < count; ++i)
      params[i]->read(slots[i], *rq.args_);
    rq.args_->expect_end();
    call(rq, target, fn, slots);
  }

  /// Calls the member function `*fn` (of type F, on class C) on `object`
  /// with the decoded parameters, then encodes the copy-backs in order and
  /// the result, and sends the reply while the result lives.
  template <class F, class C, class R, class... P>
  static void call_member(Request &rq, void *object, const void *fn, void *const *slots);

  /// Constructs a T from the decoded parameters into `*static_cast<T **>(out)`.
  template <class T, class... P>
  static void make_object(Request &rq, void *out, const void *fn, void *const *slots);

private:
  /// The copy-backs of the slots that have one, in order.
  [[gnu::noinline]] static void write_backs(Request &rq, const ParamOps *const *params,
                                            std::size_t count, void *const *slots) {
    for (std::size_t i = 0; i < count; ++i)
      if (params[i]->write_back)
        params[i]->write_back(slots[i], *rq.reply_);
  }
  /// Encodes a result of class type (once per type, out of line).
  template <class R> [[gnu::noinline]] static void write_result(Writer &w, const R &result) {
    w.write(result);
  }
};

template <class F, class C, class R, class... P>
void Serve::call_member(Request &rq, void *object, const void *fn, void *const *slots) {
  constexpr bool copies_back = (SlotOf<P>::copies_back || ...);
  auto call = [&]<std::size_t... I>(std::index_sequence<I...>) -> R {
    return (static_cast<C *>(object)->*(*static_cast<const F *>(fn)))(
        static_cast<SlotOf<P> *>(slots[I])->get()...);
  };
  if constexpr (std::is_void_v<R>) {
    call(std::index_sequence_for<P...>{});
    if constexpr (copies_back)
      write_backs(rq, param_ops<P...>, sizeof...(P), slots);
    rq.finish_reply();
  } else {
    std::remove_cvref_t<R> result = call(std::index_sequence_for<P...>{});
    if constexpr (copies_back)
      write_backs(rq, param_ops<P...>, sizeof...(P), slots);
    if constexpr (std::is_class_v<std::remove_cvref_t<R>>)
      write_result(*rq.reply_, result);
    else
      rq.reply_->write(result);
    rq.finish_reply(); // while the result, which large blocks point into, lives
  }
}

template <class T, class... P>
void Serve::make_object(Request &, void *out, const void *, void *const *slots) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    *static_cast<T **>(out) = new T(static_cast<SlotOf<P> *>(slots[I])->get()...);
  }(std::index_sequence_for<P...>{});
}
} // namespace detail

template <class C, class R, class... P, class Self, class F> void Request::serve(Self &self, F fn) {
  C &object = self;
  detail::Serve::run(*this, detail::param_ops<P...>, sizeof...(P),
                     static_cast<void *>(std::addressof(object)), &fn,
                     &detail::Serve::call_member<F, C, R, P...>);
}

template <class T, class... P> T *Request::construct() {
  T *made = nullptr;
  detail::Serve::run(*this, detail::param_ops<P...>, sizeof...(P), &made, nullptr,
                     &detail::Serve::make_object<T, P...>);
  return made;
}

} // namespace poc
