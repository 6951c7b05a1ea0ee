#pragma once
/// \file
/// Creation and destruction of processes: what `new(m) T(args)`,
/// `start p = new(m) T(args)` and `delete p` become.

#include <poc/arguments.hpp>
#include <poc/machine.hpp>
#include <poc/registration.hpp>
#include <poc/transport.hpp>

#include <cstdint>
#include <typeinfo>

namespace poc {

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
