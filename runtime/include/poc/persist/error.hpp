//===- poc/persist/error.hpp - Errors of the persistent object store ------===//
//
// Every failure of the store is reported as a poc::persist::store_error that
// names the object (its address) and says what is wrong, so that a damaged or
// incompatible store file never crashes a program or silently yields garbage.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace poc::persist {

/// What went wrong, for callers that react differently to different failures
/// (the runtime creates an object on `not_found`; `poc-store` maps kinds to
/// exit codes).
enum class store_errc {
  invalid_address,     ///< The address breaks the rules of docs/persistence.md.
  invalid_argument,    ///< Another argument of a save is out of range (class name).
  not_found,           ///< No object is stored under the address.
  io,                  ///< A system call failed (message carries strerror).
  bad_magic,           ///< The file is not a poc store record at all.
  unsupported_version, ///< Written by an incompatible store format version.
  corrupt,             ///< Checksum or structural check failed.
  truncated,           ///< The file is shorter than its header says.
  class_mismatch,      ///< The stored object is of another class.
  layout_mismatch,     ///< The stored object was written by another class layout.
  no_root,             ///< No store directory could be determined.
  busy,                ///< Another Lease holds the object (it is active elsewhere).
};

/// Short stable name of a kind ("not_found", ...), for messages and tools.
std::string_view to_string(store_errc kind) noexcept;

/// The exception every store operation throws.
class store_error : public std::runtime_error {
public:
  /// \p address may be empty when the failure concerns no single object.
  store_error(store_errc kind, std::string address, const std::string &what);

  store_errc kind() const noexcept { return Kind; }
  /// The address of the object concerned ("" if none).
  const std::string &address() const noexcept { return Address; }

private:
  store_errc Kind;
  std::string Address;
};

} // namespace poc::persist
