//===- poc/serialize/optional.hpp - std::optional -------------------------===//
//
// One tag byte, 0 (empty) or 1 (a value follows); any other tag is
// malformed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace poc {

template <class T> struct Serializer<std::optional<T>> {
  static constexpr std::size_t min_size = 1;

  static void write(Writer &w, const std::optional<T> &o) {
    if (!o) {
      w.write_byte(0);
      return;
    }
    w.write_byte(1);
    w.write(*o);
  }

  static void read(Reader &r, std::optional<T> &o) {
    std::uint8_t tag = r.read_byte();
    if (tag == 0) {
      o.reset();
      return;
    }
    if (tag != 1)
      r.fail("invalid std::optional tag " + std::to_string(tag) + " (must be 0 or 1)");
    if (!o)
      o.emplace();
    r.read(*o);
  }
};

} // namespace poc
