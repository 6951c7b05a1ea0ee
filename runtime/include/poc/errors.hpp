#pragma once
/// \file
/// Exceptions the runtime throws at its users.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <typeinfo>

namespace poc {

/// The identity of an exception type across executables: a 64-bit hash of
/// its demangled name, so a program built from other sources names the
/// same type by the same id. The runtime registers a type (and demangles
/// its name) on first use. An exception thrown by a remote process reaches
/// its caller as a remote_error carrying this id.
std::uint64_t error_type_id(const std::type_info &type);
/// The identity of exception type `E`.
template <class E> std::uint64_t error_type_id() {
  static const std::uint64_t id = error_type_id(typeid(E));
  return id;
}

/// Misuse of the poc++ API detected at run time, e.g. `new(machine) T` in a
/// program that was compiled by a plain C++ compiler instead of poc++, or a
/// runtime call before `poc::run` started the job.
class usage_error : public std::logic_error {
public:
  using std::logic_error::logic_error;
};

/// An exception thrown by a method of a remote process (or by its
/// constructor), as seen by the caller. `what()` reads
/// "<type>: <message>" where <type> is the demangled dynamic type of the
/// original exception; the remote process keeps serving after throwing.
class remote_error : public std::runtime_error {
public:
  /// `type_id`: error_type_id of the original exception's dynamic type,
  /// `type`: its demangled name.
  remote_error(std::uint64_t type_id, std::string type, std::string message);
  /// True if the original exception's dynamic type was exactly `E`
  /// (compared by identity, not by name).
  template <class E> bool is() const noexcept { return type_id_ == error_type_id<E>(); }
  /// error_type_id of the original exception's dynamic type.
  std::uint64_t type_id() const noexcept { return type_id_; }
  /// Demangled type name of the exception thrown remotely.
  const std::string &type() const noexcept { return type_; }
  /// The original exception's what().
  const std::string &message() const noexcept { return message_; }

private:
  std::uint64_t type_id_;
  std::string type_;
  std::string message_;
};

/// Thrown by ProcessGroupMember::barrier() when a member of the group will
/// never reach the barrier (it failed in a method, or it was deleted);
/// `message()` names the member and what happened to it.
class barrier_abandoned : public remote_error {
public:
  explicit barrier_abandoned(std::string message);
};

/// A message that violates the runtime protocol (bad magic, truncated header,
/// unknown kind, reply for an unknown call). Thrown and reported at the
/// receiver; never a crash.
class protocol_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace poc
