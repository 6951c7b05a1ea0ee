#pragma once
/// \file
/// Creation and destruction of processes: what `new(m) T(args)`,
/// `start p = new(m) T(args)`, `new(poc::persistent_at(m, address)) T(args)`
/// and `delete p` become.

#include <poc/gen/arguments.hpp>
#include <poc/gen/registration.hpp>
#include <poc/machine.hpp>
#include <poc/persistent.hpp>
#include <poc/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <typeindex>
#include <typeinfo>

namespace poc {

namespace detail {
/// Creates the persistent process at `address` with constructor `ctor` and
/// the arguments in `w`, saves its state and returns its reference.
void *create_persistent(std::type_index type, const machine &m, std::string_view address,
                        std::uint64_t ctor, Writer &w, std::size_t min_bytes);
} // namespace detail

/// Creates a process of class `T` on machine `m` by constructor `ctor`
/// (method_id of "T::T(params)") with `args` (which must have the
/// constructor's parameter types), waits until the constructor has run and
/// returns the remote reference. Throws remote_error if it threw.
template <class T, class... A> T *create(const machine &m, std::uint64_t ctor, const A &...args) {
  Writer w;
  detail::begin_message(w);
  (detail::ArgCodec<A>::write(w, args), ...);
  return static_cast<T *>(detail::create_process(typeid(T), m, ctor, w, sizeof(T), false));
}

/// Like create() but returns the reference at once; calls through it are
/// queued behind the creation, and a constructor error is reported by the
/// next poc::sync() (and to every call made through the reference).
template <class T, class... A>
T *start_create(const machine &m, std::uint64_t ctor, const A &...args) {
  Writer w;
  detail::begin_message(w);
  (detail::ArgCodec<A>::write(w, args), ...);
  return static_cast<T *>(detail::create_process(typeid(T), m, ctor, w, sizeof(T), true));
}

/// Creates a new persistent process of class `T` at `address` on machine `m`
/// by constructor `ctor` (as for create<T>) with `args`, saves its state and
/// returns its reference. Throws remote_error if an object already exists at
/// `address` or the constructor threw.
template <class T, class... A>
T *make_persistent(const machine &m, std::string_view address, std::uint64_t ctor,
                   const A &...args) {
  detail::check_persistent_class<T>();
  Writer w;
  detail::begin_message(w);
  w.write(std::string(address)); // the host validates it again
  (detail::ArgCodec<A>::write(w, args), ...);
  return static_cast<T *>(detail::create_persistent(typeid(T), m, address, ctor, w, sizeof(T)));
}

/// `delete p`: for a remote reference, waits until the process has served
/// the requests queued before this one, runs its destructor and ends it;
/// later requests to it fail with remote_error. A local `p` is deleted.
template <class T> void destroy(T *p) {
  if (!p)
    return;
  if (!is_remote(p)) {
    delete p;
    return;
  }
  detail::destroy_process(p);
}

} // namespace poc
