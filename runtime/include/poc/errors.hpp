#pragma once
/// \file
/// Exceptions the runtime throws at its users.

#include <stdexcept>
#include <string>

namespace poc {

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
  remote_error(std::string type, std::string message);
  /// Demangled type name of the exception thrown remotely.
  const std::string &type() const noexcept { return type_; }
  /// The original exception's what().
  const std::string &message() const noexcept { return message_; }

private:
  std::string type_;
  std::string message_;
};

/// A message that violates the runtime protocol (bad magic, truncated header,
/// unknown kind, reply for an unknown call). Thrown and reported at the
/// receiver; never a crash.
class protocol_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace poc
