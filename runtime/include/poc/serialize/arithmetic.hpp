//===- poc/serialize/arithmetic.hpp - Scalars and enums -------------------===//
//
// Integers and floating-point values are fixed width, little-endian. A bool
// is one byte, 0 or 1; any other byte is rejected. An enum is its underlying
// type (its value is not checked against the enumerators: C++ permits any
// value of the underlying type). std::byte is an enum, so it is one byte.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/endian.hpp"
#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <string>
#include <type_traits>

namespace poc {

template <class T> struct Serializer<T, std::enable_if_t<std::is_arithmetic_v<T>>> {
  static constexpr std::size_t min_size = sizeof(T);

  static void write(Writer &w, const T &v) {
    if constexpr (std::is_same_v<T, bool>) {
      w.write_byte(v ? 1 : 0);
    } else {
      T wire = detail::to_wire_order(v);
      w.write_bytes(&wire, sizeof(T));
    }
  }

  static void read(Reader &r, T &v) {
    if constexpr (std::is_same_v<T, bool>) {
      std::uint8_t b = r.read_byte();
      if (b > 1)
        r.fail("invalid bool value " + std::to_string(b) + " (must be 0 or 1)");
      v = b != 0;
    } else {
      T wire;
      r.read_bytes(&wire, sizeof(T));
      v = detail::to_wire_order(wire);
    }
  }
};

template <class T> struct Serializer<T, std::enable_if_t<std::is_enum_v<T>>> {
  using Underlying = std::underlying_type_t<T>;
  static constexpr std::size_t min_size = sizeof(Underlying);

  static void write(Writer &w, const T &v) {
    Serializer<Underlying>::write(w, static_cast<Underlying>(v));
  }
  static void read(Reader &r, T &v) {
    Underlying u;
    Serializer<Underlying>::read(r, u);
    v = static_cast<T>(u);
  }
};

} // namespace poc
