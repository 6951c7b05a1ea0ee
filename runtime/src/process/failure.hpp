#pragma once
/// \file
/// An exception on its way from the process that threw it to its caller:
/// the identity of its type (poc::error_type_id, the same in every
/// executable), the type's name for people, and its what(). Replies and
/// acknowledgements carry it; the caller receives it as remote_error.

#include <poc/errors.hpp>
#include <poc/serialize.hpp>

#include <cstdint>
#include <exception>
#include <string>

namespace poc::detail {

struct RemoteFailure {
  std::uint64_t type = 0;
  std::string name;
  std::string message;

  /// A failure of type `E` made by the runtime itself (a refused request).
  template <class E> static RemoteFailure of(std::string message) {
    return {error_type_id<E>(), error_type_name(typeid(E)), std::move(message)};
  }
  /// The failure of the exception being handled (call inside a catch).
  static RemoteFailure current() noexcept;

  /// True if the original exception's type was exactly `E`.
  template <class E> bool is() const noexcept { return type == error_type_id<E>(); }

  /// What the caller sees: a remote_error, or the barrier_abandoned a
  /// barrier's failure is.
  std::exception_ptr to_exception() const;

  void write(Writer &w) const;
  static RemoteFailure read(Reader &r);

  /// The registered name of `type` (demangled once).
  static std::string error_type_name(const std::type_info &type);
};

/// The failure of a started request, with the method it asked for (the
/// request's member: a method id, or a constructor's), so that the caller
/// can say which of its started calls failed.
struct StartedFailure {
  std::uint64_t member = 0;
  RemoteFailure failure;
};

} // namespace poc::detail
