//===- poc/serialize/vector.hpp - std::vector -----------------------------===//
//
// vector<T> of bitwise-serializable T is one block: the sender's storage is
// copied into the message, or, from 64 KiB on, sent out of band straight
// from the vector and received straight into the resized vector. Other
// vectors are a count and the elements; vector<bool> is a bit count and the
// bits packed eight to a byte, least significant first.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/bitwise.hpp"
#include "poc/serialize/reader.hpp"
#include "poc/serialize/sequence.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace poc {

template <class T, class A> struct Serializer<std::vector<T, A>> {
  static constexpr std::size_t min_size = 1;

  static void write(Writer &w, const std::vector<T, A> &v) {
    if constexpr (is_bitwise_serializable_v<T>)
      w.write_block(v.data(), v.size() * sizeof(T));
    else
      detail::write_sequence(w, v);
  }

  static void read(Reader &r, std::vector<T, A> &v) {
    if constexpr (is_bitwise_serializable_v<T>) {
      Reader::BlockHeader h = r.read_block_header(std::numeric_limits<std::size_t>::max());
      if (h.size % sizeof(T) != 0)
        r.fail("vector block length is not a multiple of the element size");
      v.resize(h.size / sizeof(T));
      r.read_block_payload(h, v.data());
    } else {
      detail::read_sequence(r, v);
    }
  }
};

template <class A> struct Serializer<std::vector<bool, A>> {
  static constexpr std::size_t min_size = 1;

  static void write(Writer &w, const std::vector<bool, A> &v) {
    std::size_t n = v.size();
    w.write_size(n);
    w.reserve((n + 7) / 8);
    for (std::size_t i = 0; i < n; i += 8) {
      unsigned byte = 0;
      for (std::size_t bit = 0; bit < 8 && i + bit < n; ++bit)
        byte |= static_cast<unsigned>(v[i + bit]) << bit;
      w.write_byte(static_cast<std::uint8_t>(byte));
    }
  }

  static void read(Reader &r, std::vector<bool, A> &v) {
    std::size_t n = r.read_count(0);
    if ((n + 7) / 8 > r.remaining())
      r.fail("vector<bool> bit count exceeds the remaining bytes");
    v.assign(n, false);
    for (std::size_t i = 0; i < n; i += 8) {
      std::uint8_t byte = r.read_byte();
      std::size_t bits = n - i < 8 ? n - i : 8;
      if (bits < 8 && (byte >> bits) != 0)
        r.fail("vector<bool> padding bits are not zero");
      for (std::size_t bit = 0; bit < bits; ++bit)
        v[i + bit] = (byte >> bit) & 1;
    }
  }
};

} // namespace poc
