//===- round_trip.hpp - Helpers shared by the serialization tests ---------===//
#pragma once

#include "poc/serialize.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

namespace poc::test {

/// Encodes \p value, decodes it into a fresh T through the message and its
/// out-of-band blocks, checks every byte and block was consumed, and
/// returns the copy.
template <class T> T round_trip(const T &value) {
  Writer w;
  w.write(value);
  MemoryBlockSource blocks(w.out_of_band());
  Reader r(w.bytes(), &blocks);
  T out{};
  r.read(out);
  r.expect_end();
  EXPECT_EQ(blocks.remaining(), 0u);
  return out;
}

/// The encoding of \p value (in-band bytes only).
template <class T> std::vector<std::byte> encode(const T &value) {
  Writer w;
  w.write(value);
  return w.take();
}

/// Decodes a T from \p bytes, requiring that all bytes are consumed.
template <class T> T decode(const std::vector<std::byte> &bytes) {
  Reader r(bytes);
  T out{};
  r.read(out);
  r.expect_end();
  return out;
}

/// Bytes from a list of integers, for hand-made messages.
inline std::vector<std::byte> bytes(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  for (int v : values)
    out.push_back(static_cast<std::byte>(v));
  return out;
}

} // namespace poc::test
