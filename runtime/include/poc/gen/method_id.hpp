#pragma once
/// \file
/// Method identities shared by the client and server halves of a class.

#include <cstdint>
#include <string_view>

namespace poc {

/// 64-bit id of a remotely callable method, constructor or class: FNV-1a 64
/// of its canonical signature string (see docs/runtime.md section 3.1).
/// Constant-evaluated so generated code can use it in `case` labels.
constexpr std::uint64_t method_id(std::string_view signature) noexcept {
  std::uint64_t h = 14695981039346656037ull;
  for (char c : signature) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

} // namespace poc
