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

/// A cheaper hash of three words, for the operation cache's slots: one
/// finaliser over the words' multiples, where hashing them pairwise with
/// hash_words takes six (a key that collides costs a cache hit, never a
/// wrong answer: an entry holds its whole key).
constexpr std::uint64_t hash_key(std::uint64_t a, std::uint64_t b, std::uint64_t c) noexcept {
  const auto rotate = [](std::uint64_t x, unsigned r) { return x << r | x >> (64 - r); };
  return mix64(a * 0x9e3779b97f4a7c15ull ^ rotate(b * 0xc2b2ae3d27d4eb4full, 21) ^
               rotate(c * 0x165667b19e3779f9ull, 42));
}

} // namespace bdd
