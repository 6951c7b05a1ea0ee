//===- bdd/edge.hpp - BDD edges and 16-byte nodes ------------------*- C++ -*-===//
///
/// \file
/// The representation every part of apps/bdd shares: an edge is a 64-bit
/// word naming a node of the distributed table by its 40-bit global index,
/// with a complement bit; a node is 16 bytes holding its level and its two
/// edges (thesis section 5.1). Complement edges make negation free; the
/// canonical form keeps every low edge regular.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace bdd {

/// A reference to a BDD: global node index (bits 0..39) and complement (bit 63).
using Edge = std::uint64_t;
/// A variable, and the level it has in the order (they coincide here).
using Level = std::uint32_t;

inline constexpr Edge kComplementBit = 1ull << 63;
inline constexpr std::uint64_t kIndexMask = (1ull << 40) - 1;
/// Bits 40..62 of an edge are free; the operation cache keeps an operation
/// code there.
inline constexpr unsigned kFreeBitsShift = 40;
/// The constant false: the terminal node, index 0.
inline constexpr Edge kFalse = 0;
/// The constant true: the complemented terminal.
inline constexpr Edge kTrue = kComplementBit;
/// The level of the terminal, below every variable.
inline constexpr Level kTerminalLevel = 0xffffff;
/// Largest global node index (40 bits).
inline constexpr std::uint64_t kMaxIndex = kIndexMask;

constexpr std::uint64_t index_of(Edge e) noexcept { return e & kIndexMask; }
constexpr bool is_complemented(Edge e) noexcept { return (e & kComplementBit) != 0; }
constexpr bool is_constant(Edge e) noexcept { return index_of(e) == 0; }
constexpr Edge complement(Edge e) noexcept { return e ^ kComplementBit; }
constexpr Edge regular(Edge e) noexcept { return e & ~kComplementBit; }
/// `e` complemented when `flip`.
constexpr Edge complement_if(Edge e, bool flip) noexcept { return flip ? complement(e) : e; }

/// A node as stored: `high` is a full edge (it may be complemented), `low`
/// is regular (canonical form), `level` is 24 bits.
struct Node {
  std::uint64_t high_word; ///< high edge: index | complement bit
  std::uint64_t low_level; ///< level << 40 | low index

  static constexpr Node make(Level level, Edge low, Edge high) noexcept {
    return Node{high, (std::uint64_t{level} << 40) | index_of(low)};
  }
  constexpr Level level() const noexcept { return static_cast<Level>(low_level >> 40); }
  constexpr Edge low() const noexcept { return low_level & kIndexMask; }
  constexpr Edge high() const noexcept { return high_word; }
  friend constexpr bool operator==(const Node &, const Node &) = default;
};
static_assert(sizeof(Node) == 16);

/// The cofactors of an edge `e` to a node `n` on n's level.
struct Cofactors {
  Edge low, high;
};
constexpr Cofactors cofactors(Edge e, const Node &n) noexcept {
  bool c = is_complemented(e);
  return {complement_if(n.low(), c), complement_if(n.high(), c)};
}

} // namespace bdd
