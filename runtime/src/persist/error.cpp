//===- persist/error.cpp - Errors of the persistent object store ----------===//
#include "poc/persist/error.hpp"

#include <utility>

namespace poc::persist {

std::string_view to_string(store_errc kind) noexcept {
  switch (kind) {
  case store_errc::invalid_address:
    return "invalid_address";
  case store_errc::invalid_argument:
    return "invalid_argument";
  case store_errc::not_found:
    return "not_found";
  case store_errc::io:
    return "io";
  case store_errc::bad_magic:
    return "bad_magic";
  case store_errc::unsupported_version:
    return "unsupported_version";
  case store_errc::corrupt:
    return "corrupt";
  case store_errc::truncated:
    return "truncated";
  case store_errc::class_mismatch:
    return "class_mismatch";
  case store_errc::layout_mismatch:
    return "layout_mismatch";
  case store_errc::no_root:
    return "no_root";
  case store_errc::busy:
    return "busy";
  }
  return "unknown";
}

namespace {
std::string compose(const std::string &address, const std::string &what) {
  if (address.empty())
    return "poc store: " + what;
  return "poc store: object '" + address + "': " + what;
}
} // namespace

store_error::store_error(store_errc kind, std::string address, const std::string &what)
    : std::runtime_error(compose(address, what)), Kind(kind), Address(std::move(address)) {}

} // namespace poc::persist
