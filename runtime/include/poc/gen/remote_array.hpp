#pragma once
/// \file
/// Remote arrays: what `new(m) E[n]`, `p[i]`, `delete[] p` become.
/// A remote array is a process of the built-in class RemoteArray<E>; its
/// reference is an address in an arena slot of at least n * sizeof(E)
/// bytes, so `p + i` is a reference to element i.

#include <poc/gen/call.hpp>
#include <poc/gen/create.hpp>
#include <poc/gen/method_id.hpp>
#include <poc/gen/registration.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace poc {
namespace detail {

/// The process that holds a remote array's elements.
template <class E> class RemoteArray {
  static_assert(std::is_trivially_copyable_v<E>,
                "poc: remote array elements must be trivially copyable");

public:
  explicit RemoteArray(std::uint64_t n) : data_(n) {}
  E get(std::uint64_t i) const { return data_[check(i, 1)]; }
  void set(std::uint64_t i, E v) { data_[check(i, 1)] = v; }
  /// Applies `op` (0 +=, 1 -=, 2 *=, 3 /=) to element i; returns the result.
  E update(std::uint64_t i, std::uint8_t op, E v) {
    if constexpr (std::is_arithmetic_v<E>) {
      E &e = data_[check(i, 1)];
      switch (op) {
      case 0:
        e += v;
        break;
      case 1:
        e -= v;
        break;
      case 2:
        e *= v;
        break;
      case 3:
        e /= v;
        break;
      default:
        throw std::invalid_argument("poc: bad remote array operation");
      }
      return e;
    } else {
      throw std::invalid_argument("poc: arithmetic on a non-arithmetic remote array");
    }
  }
  /// Replies with elements [first, first+n) as one block.
  void read(Request &rq) {
    auto first = rq.args().read<std::uint64_t>();
    auto n = rq.args().read<std::uint64_t>();
    rq.args().expect_end();
    write_elements(rq.reply(), data_.data() + check(first, n), n);
  }
  /// Receives elements [first, first+n) straight into the array.
  void write(Request &rq) {
    auto first = rq.args().read<std::uint64_t>();
    auto n = read_count<E>(rq.args());
    read_elements(rq.args(), data_.data() + check(first, n), n);
    rq.args().expect_end();
  }

private:
  std::size_t check(std::uint64_t first, std::uint64_t n) const {
    if (first > data_.size() || n > data_.size() - first)
      throw std::out_of_range("poc: remote array range [" + std::to_string(first) + ", +" +
                              std::to_string(n) + ") outside [0, " + std::to_string(data_.size()) +
                              ")");
    return static_cast<std::size_t>(first);
  }
  std::vector<E> data_;
};

/// Ids and class name of RemoteArray<E> (same on every rank: one executable).
template <class E> struct RemoteArrayInterface {
  static std::string class_name() {
    return std::string("poc::RemoteArray<") + typeid(E).name() + ">";
  }
  enum : std::uint64_t {
    ctor = method_id("poc::RemoteArray::RemoteArray(uint64)"),
    get = method_id("poc::RemoteArray::get(uint64) const"),
    set = method_id("poc::RemoteArray::set(uint64,E)"),
    update = method_id("poc::RemoteArray::update(uint64,uint8,E)"),
    read = method_id("poc::RemoteArray::read(uint64,uint64)"),
    write = method_id("poc::RemoteArray::write(uint64,E[])"),
  };
};

/// Server of RemoteArray<E>, in the generated shape.
template <class E> struct RemoteArrayServer : RemoteArrayInterface<E> {
  using I = RemoteArrayInterface<E>;
  static void dispatch(RemoteArray<E> &self, std::uint64_t method, Request &rq) {
    switch (method) {
    case I::get:
      rq.invoke(self, &RemoteArray<E>::get);
      return;
    case I::set:
      rq.invoke(self, &RemoteArray<E>::set);
      return;
    case I::update:
      rq.invoke(self, &RemoteArray<E>::update);
      return;
    case I::read:
      self.read(rq);
      return;
    case I::write:
      self.write(rq);
      return;
    default:
      rq.unknown_method(method);
    }
  }
  static RemoteArray<E> *construct(std::uint64_t ctor, Request &rq) {
    if (ctor != I::ctor)
      rq.unknown_method(ctor);
    return rq.construct<RemoteArray<E>, std::uint64_t>();
  }
  static inline const ClassRegistration<RemoteArray<E>, RemoteArrayServer> registration{
      I::class_name()};
};

/// Element index of `p` within its remote array.
template <class E> std::uint64_t element_index(const E *p) {
  ArrayRef ref = array_ref(p);
  if (ref.offset % sizeof(E) != 0)
    throw usage_error("poc: misaligned remote array element reference");
  return ref.offset / sizeof(E);
}

} // namespace detail

/// `new(m) E[n]`: creates a remote array of `n` value-initialised elements
/// on machine `m`.
template <class E> E *create_array(const machine &m, std::size_t n) {
  using S = detail::RemoteArrayServer<E>;
  (void)&S::registration; // instantiate the registration on every rank
  Writer w;
  detail::begin_message(w);
  w.write(static_cast<std::uint64_t>(n));
  std::size_t bytes = n * sizeof(E);
  return static_cast<E *>(detail::create_process(typeid(detail::RemoteArray<E>), m, S::ctor, w,
                                                 bytes ? bytes : 1, false));
}

/// `delete[] p`: ends the remote array `p` (or deletes a local array).
template <class E> void destroy_array(E *p) {
  if (!p)
    return;
  if (!is_remote(p)) {
    delete[] p;
    return;
  }
  detail::destroy_process(p);
}

/// The value of element `i` of the possibly remote array `p`: what a read
/// of `p[i]` or `*p` becomes. A value of type E, not a proxy, so it is a
/// copy wherever C++ copies (`auto`, variadic arguments, template argument
/// deduction) and later writes to the element do not show through it.
template <class E> E element_value(const E *p, std::ptrdiff_t i) {
  const E *at = p + i;
  if (!is_remote(at))
    return *at;
  Call call(at, detail::RemoteArrayInterface<E>::get, "poc::RemoteArray::get");
  call.args(detail::element_index(at));
  return call.template invoke<E>();
}

/// An element of a possibly remote array being written: what `p[i]` and
/// `*p` become on the left of an assignment and under `++`/`--`. Writes with
/// `=`, updates with `+=`, `-=`, `*=`, `/=`, `++`, `--` (one message each
/// for remote elements); reading it (`operator E`) gives the value.
template <class E> class element_ref {
  using I = detail::RemoteArrayInterface<E>;

public:
  explicit element_ref(E *p) noexcept : p_(p) {}

  operator E() const { return element_value(p_, 0); }
  element_ref &operator=(const E &v) {
    if (!is_remote(p_)) {
      *p_ = v;
      return *this;
    }
    Call call(p_, I::set, "poc::RemoteArray::set");
    call.args(detail::element_index(p_), v);
    call.invoke();
    return *this;
  }
  element_ref &operator=(const element_ref &other) { return *this = static_cast<E>(other); }
  element_ref &operator+=(const E &v) { return update(0, v); }
  element_ref &operator-=(const E &v) { return update(1, v); }
  element_ref &operator*=(const E &v) { return update(2, v); }
  element_ref &operator/=(const E &v) { return update(3, v); }
  element_ref &operator++() { return update(0, E(1)); }
  element_ref &operator--() { return update(1, E(1)); }
  /// Postfix: one update message; the value before it.
  E operator++(int) { return updated(0, E(1)) - E(1); }
  E operator--(int) { return updated(1, E(1)) + E(1); }

  /// The element's address (local or remote reference).
  E *address() const noexcept { return p_; }

private:
  element_ref &update(std::uint8_t op, const E &v) {
    updated(op, v);
    return *this;
  }
  /// Applies `op` (as RemoteArray::update numbers them); returns the result.
  E updated(std::uint8_t op, const E &v) {
    if (!is_remote(p_)) {
      switch (op) {
      case 0:
        *p_ += v;
        break;
      case 1:
        *p_ -= v;
        break;
      case 2:
        *p_ *= v;
        break;
      default:
        *p_ /= v;
        break;
      }
      return *p_;
    }
    Call call(p_, I::update, "poc::RemoteArray::update");
    call.args(detail::element_index(p_), op, v);
    return call.template invoke<E>();
  }
  E *p_;
};

/// `p[i]` for a possibly remote `p`.
template <class E> element_ref<E> element(E *p, std::ptrdiff_t i) { return element_ref<E>(p + i); }

/// Copies elements [first, first+n) of the possibly remote array `p` to
/// `out` (out of band, straight into `out`, when large).
template <class E> void read(const E *p, std::size_t first, std::size_t n, E *out) {
  if (!is_remote(p)) {
    std::copy(p + first, p + first + n, out);
    return;
  }
  using I = detail::RemoteArrayInterface<E>;
  Call call(p, I::read, "poc::RemoteArray::read");
  call.args(detail::element_index(p) + first, static_cast<std::uint64_t>(n));
  Reply reply = call.invoke_reply();
  if (detail::read_count<E>(reply.reader()) != n)
    throw decode_error("poc: remote array read returned a different count");
  detail::read_elements(reply.reader(), out, n);
  reply.result<void>();
}

/// Copies `n` elements from `in` into [first, first+n) of the possibly
/// remote array `p` (out of band, straight from `in`, when large).
template <class E> void write(E *p, std::size_t first, std::size_t n, const E *in) {
  if (!is_remote(p)) {
    std::copy(in, in + n, p + first);
    return;
  }
  using I = detail::RemoteArrayInterface<E>;
  Call call(p, I::write, "poc::RemoteArray::write");
  call.writer().write(static_cast<std::uint64_t>(detail::element_index(p) + first));
  detail::write_elements(call.writer(), in, n);
  call.invoke();
}

} // namespace poc
