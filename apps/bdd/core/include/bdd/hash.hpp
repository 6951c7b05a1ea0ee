//===- bdd/hash.hpp - Hashing of table and cache keys ---------------*- C++ -*-===//
#pragma once

#include <cstdint>

namespace bdd {

/// A 64-bit finaliser (every input bit affects every output bit), so that
/// both the low bits (bucket) and the high bits (fingerprint) are usable.
constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

/// `hash` scaled to 0..n-1 by its high bits: a multiplication, where `%`
/// would be a division on every probe (Lemire's fastrange).
constexpr std::uint64_t scale(std::uint64_t hash, std::uint64_t n) noexcept {
  __extension__ using Wide = unsigned __int128;
  return static_cast<std::uint64_t>((static_cast<Wide>(hash) * n) >> 64);
}

/// Hash of two words.
constexpr std::uint64_t hash_words(std::uint64_t a, std::uint64_t b) noexcept {
  return mix64(a * 0x9e3779b97f4a7c15ull ^ mix64(b));
}

/// Hash of four words.
constexpr std::uint64_t hash_words(std::uint64_t a, std::uint64_t b, std::uint64_t c,
                                   std::uint64_t d) noexcept {
  return hash_words(hash_words(a, b), hash_words(c, d));
}

} // namespace bdd
