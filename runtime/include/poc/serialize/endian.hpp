//===- poc/serialize/endian.hpp - Little-endian wire representation --------===//
//
// The wire format is little-endian. On little-endian hosts (every platform
// poc++ runs on today) the conversions below are the identity and compile
// away; on a big-endian host they swap bytes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace poc::detail {

/// True if a T's memory representation is its wire representation.
inline constexpr bool kNativeIsWire = std::endian::native == std::endian::little;

/// Converts an arithmetic value between host and wire byte order (the
/// conversion is its own inverse).
template <class T> T to_wire_order(T v) noexcept {
  static_assert(std::is_arithmetic_v<T>);
  if constexpr (kNativeIsWire || sizeof(T) == 1) {
    return v;
  } else {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    for (std::size_t i = 0; i < sizeof(T) / 2; ++i) {
      unsigned char t = bytes[i];
      bytes[i] = bytes[sizeof(T) - 1 - i];
      bytes[sizeof(T) - 1 - i] = t;
    }
    std::memcpy(&v, bytes, sizeof(T));
    return v;
  }
}

} // namespace poc::detail
