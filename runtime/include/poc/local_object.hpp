#pragma once
/// \file
/// Direct access to a process that lives in the caller's own OS process
/// (docs/runtime.md section 2.1).

#include <typeindex>
#include <typeinfo>

namespace poc {

namespace detail {
/// The object of the process `ref` names if it is hosted in this OS process
/// and its class is the one registered for `type`; `ref` itself if it is
/// not a remote reference; otherwise nullptr.
void *local_object(const void *ref, std::type_index type);
} // namespace detail

/// The object behind `ref` when the caller may touch it directly: `ref`
/// itself for an ordinary pointer, the process's object for a process of
/// class exactly `T` hosted in the calling OS process (its host, i.e. its
/// MPI rank), nullptr otherwise (another host, a process not constructed
/// yet or already deleted, or one of a class derived from `T`).
///
/// A call through the result is an ordinary C++ call in the calling thread:
/// it bypasses the process's queue and runs concurrently with the methods
/// the process serves. Use it only for members the class makes safe for
/// that (stdlib's memory page devices share their pages this way, section
/// 2.1), and only while the process lives: its deletion frees the object.
template <class T> T *local_object(T *ref) {
  return static_cast<T *>(detail::local_object(ref, typeid(T)));
}

} // namespace poc
