//===- bdd/operation_cache.hpp - The distributed memoization cache --*- C++ -*-===//
///
/// \file
/// OperationCache: results of BDD operations, keyed by the operation and up
/// to three operands, spread over the ranks like the node table (thesis
/// section 5.2). Direct-mapped: a key has one 32-byte slot (half a cache
/// line), and a new entry overwrites the old one. The slot's first word is
/// the key's first word (operation and first operand) with a lock bit and a
/// version; then come the other operands and the result. A writer claims
/// the slot with compare-and-swap from the word it saw (setting the lock),
/// writes the rest and publishes the first word with the next version; a
/// writer that finds the slot locked drops its entry (a cache may forget).
/// A reader reads the slot and its first word again, and takes the entry
/// only if the key matches, no lock was seen and the first word (with its
/// version) did not change.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "bdd/distributed_memory.hpp"
#include "bdd/edge.hpp"

#include <cstdint>
#include <optional>

namespace bdd {

/// Operation codes (bits 40..47 of the cache key's first word).
enum class Operation : std::uint64_t {
  And = 1,
  Ite = 2,
  Exists = 3,
  RelNext = 4,
  Saturate = 5,
};

/// What one rank's cache calls did.
struct CacheCounters {
  std::uint64_t lookups = 0, hits = 0, stores = 0, dropped = 0;
};

/// The distributed operation cache (collective to create and destroy).
class OperationCache {
public:
  /// Bytes of one slot: the key's three words and the result.
  static constexpr std::size_t kSlotBytes = 32;

  OperationCache(MPI_Comm comm, std::size_t bytes_per_rank, Access access);

  /// The result stored for (op, a, b, c), if the cache still has it.
  std::optional<Edge> find(Operation op, Edge a, Edge b, Edge c) {
    return find(op, a, b, c, counters_);
  }
  /// Stores the result of (op, a, b, c), replacing whatever was in its slot.
  void store(Operation op, Edge a, Edge b, Edge c, Edge result) {
    store(op, a, b, c, result, counters_);
  }
  /// find and store counted in `counters`: a thread of a TaskPool counts in
  /// its own, since threads that shared counters would race on them.
  std::optional<Edge> find(Operation op, Edge a, Edge b, Edge c, CacheCounters &counters);
  void store(Operation op, Edge a, Edge b, Edge c, Edge result, CacheCounters &counters);
  /// Adds `counters` (a thread's) to this rank's and zeroes them. Between
  /// runs of the threads only.
  void absorb(CacheCounters &counters);

  /// Uses one slot per kNodesPerSlot of `nodes` (the nodes in the table),
  /// rounded up to a power of two, at least kMinSlots per rank and at most
  /// all. Every member must pass the same figure for the members to find
  /// each other's entries (a mismatch costs hits, never correctness: an
  /// entry holds its whole key). An entry stored before may no longer be
  /// found; the cache may forget.
  void size_for(std::uint64_t nodes);
  static constexpr std::uint64_t kNodesPerSlot = 4;
  static constexpr std::uint64_t kMinSlots = 32768;

  /// Forgets every entry of this rank's segment. Between phases only, as
  /// DistributedMemory::zero_local.
  void clear_local() { memory_.zero_local(); }

  const CacheCounters &counters() const noexcept { return counters_; }
  /// Slots in use, over all ranks.
  std::uint64_t capacity() const noexcept { return used_ * static_cast<std::uint64_t>(ranks_); }

private:
  struct Slot {
    int rank;
    std::size_t offset;
  };
  Slot slot_of(std::uint64_t key0, Edge b, Edge c) const;

  DistributedMemory memory_;
  int ranks_;
  std::uint64_t slots_; ///< per rank
  std::uint64_t used_;  ///< per rank, the first used_ of them
  CacheCounters counters_;
};

} // namespace bdd
