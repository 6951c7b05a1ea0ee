//===- bdd/node_table.hpp - The distributed unique table ------------*- C++ -*-===//
///
/// \file
/// NodeTable: the unique table of BDD nodes, spread evenly over the ranks'
/// segments of a DistributedMemory, after the thesis's chapter 3 and
/// Sylvan's table. A rank's segment holds a bucket array and a data array.
/// A node lives in a data slot; its global index is rank << shift | slot,
/// so an edge names a node on any rank without translation (2^shift is at
/// least the slots of a rank: no division finds the rank of an index).
///
/// A bucket is one word: 24 bits of the node's hash (its fragment) beside
/// the node's slot, so a probe compares fragments and reads a node only when
/// they match. find-or-put hashes the node to a home rank and a home bucket
/// there, probes the chunk of C buckets (C = 8: one cache line) around the
/// home, then the chunk of the next hash, and so on. Over MPI (the Rma path)
/// a chunk is one one-sided read. Inserting writes the node into a free slot
/// of the home rank first, then swaps the bucket from empty to fragment |
/// slot: a node is published complete, and two inserters of the same node
/// meet at the bucket, where the loser finds the winner's node. Each thread
/// claims its slots in regions of a rank's data array (one atomic add per
/// region), so the data array fills densely from its start and nodes made
/// together sit together.
///
/// The table is sized to its nodes: of the buckets the budget gives, it uses
/// only as many as its nodes need (at most 3/4 full until the budget is
/// reached), and grows, collectively between phases, by re-hashing the
/// buckets; nodes keep their slots and indices. Pages of the budget it does
/// not use are never touched. A node stays in its slot until the whole table
/// is cleared: the GarbageCollector empties every rank's segment between
/// phases and puts the live nodes back, renumbered. A table full at its
/// budget is an error (TableFull) that names the budget, so more ranks or a
/// larger --table-mib is the remedy.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "bdd/distributed_memory.hpp"
#include "bdd/edge.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace bdd {

/// The node table has no room for another node.
class TableFull : public std::runtime_error {
public:
  explicit TableFull(const std::string &what) : std::runtime_error(what) {}
};

/// What one rank's find-or-put calls did.
struct TableCounters {
  std::uint64_t lookups = 0;    ///< find_or_put calls
  std::uint64_t inserted = 0;   ///< nodes this rank added
  std::uint64_t chunks = 0;     ///< chunks of buckets probed
  std::uint64_t compared = 0;   ///< buckets whose node was read and compared
  std::uint64_t cas_failed = 0; ///< buckets lost to another inserter
};

/// One thread's own state in the table: its counters and, per rank, the
/// region of data slots it fills.
struct TableCursor {
  struct Region {
    std::uint64_t next = 0, end = 0; ///< free slots next..end-1
    std::uint64_t generation = 0;    ///< the table's when claimed
  };
  TableCounters counters;
  std::vector<Region> regions; ///< by rank
};

/// The distributed unique table (collective to create and destroy).
class NodeTable {
public:
  /// Bytes per node of the budget: an 8-byte bucket and a 16-byte slot.
  static constexpr std::size_t kBucketBytes = 24;

  /// Collective over `comm`: `bytes_per_rank` of table on every rank,
  /// probed in chunks of `chunk` buckets (a power of two, 1..64), using at
  /// first the buckets `nodes` nodes need (all of them by default).
  NodeTable(MPI_Comm comm, std::size_t bytes_per_rank, unsigned chunk, Access access,
            std::uint64_t nodes = ~0ull);

  /// The index of the node (level, low, high), inserting it if absent.
  /// `low` must be regular. Throws TableFull.
  std::uint64_t find_or_put(const Node &node) { return find_or_put(node, own_); }
  /// The same with a thread's own cursor: threads of a TaskPool count and
  /// claim slots in their own, since shared ones would race.
  std::uint64_t find_or_put(const Node &node, TableCursor &cursor);
  /// Adds `cursor`'s counters (a thread's) to this rank's and zeroes them.
  /// Between runs of the threads only.
  void absorb(TableCursor &cursor);

  /// The node with global index `index` (> 0).
  Node node(std::uint64_t index) {
    return memory_.access() == Access::Shared ? read_node(index) : remote_node(index);
  }

  /// Buckets (and slots) over all ranks: the budget.
  std::uint64_t capacity() const noexcept { return buckets_ * static_cast<std::uint64_t>(ranks_); }
  /// Buckets in use over all ranks.
  std::uint64_t buckets_in_use() const noexcept {
    return used_ * static_cast<std::uint64_t>(ranks_);
  }
  /// Collective, between phases: grows the buckets in use to what `nodes`
  /// (over all ranks) and as many again thrice need, up to the budget.
  void fit(std::uint64_t nodes);
  /// Whether fit and grow can add buckets.
  bool can_grow() const noexcept { return used_ < buckets_; }
  /// Collective, between phases: four times the buckets in use, up to the
  /// budget (after a phase ran out of them).
  void grow();
  /// Global indices are below this (a rank's indices start at a power of
  /// two, so that the rank and the bucket of an index are a shift and a
  /// mask, not divisions, on the operations' hot path).
  std::uint64_t index_limit() const noexcept { return std::uint64_t(ranks_) << index_shift_; }
  std::uint64_t buckets_per_rank() const noexcept { return buckets_; }
  unsigned chunk() const noexcept { return chunk_; }
  /// Nodes in this rank's segment (reads only the local segment; call
  /// between phases for an exact figure).
  std::uint64_t local_nodes();
  /// Collective, between phases: the nodes in the whole table, from every
  /// member's count of the nodes it put since the table was last cleared.
  std::uint64_t nodes();
  /// Empties this rank's segment and forgets the nodes this rank read.
  /// Between phases only, as DistributedMemory::zero_local.
  void clear_local();

  const TableCounters &counters() const noexcept { return own_.counters; }
  DistributedMemory &memory() noexcept { return memory_; }

private:
  int rank_of(std::uint64_t index) const noexcept {
    return static_cast<int>(index >> index_shift_);
  }
  std::uint64_t slot_of(std::uint64_t index) const noexcept {
    return index & ((std::uint64_t{1} << index_shift_) - 1);
  }
  std::size_t bucket_offset(std::uint64_t bucket) const noexcept {
    return kHeaderBytes + static_cast<std::size_t>(bucket) * 8;
  }
  std::size_t node_offset(std::uint64_t index) const noexcept {
    return data_offset_ + static_cast<std::size_t>(slot_of(index)) * 16;
  }
  /// The node as stored, read now (inline: the operations' hot path).
  Node read_node(std::uint64_t index) {
    std::uint64_t w[2];
    memory_.read_words(rank_of(index), node_offset(index), 2, w);
    return Node{w[0], w[1]};
  }
  Node remote_node(std::uint64_t index);
  /// A free slot of `rank` in `cursor`'s region there, claiming a region
  /// if it has none; the slot stays the cursor's until take_slot.
  std::uint64_t free_slot(int rank, TableCursor &cursor);
  void take_slot(int rank, TableCursor &cursor) { ++cursor.regions[rank].next; }
  /// Buckets per rank for `nodes` nodes over all ranks (NodeTable::fit).
  std::uint64_t buckets_for(std::uint64_t nodes) const noexcept;
  /// Uses `buckets` buckets per rank from now on, re-hashing this rank's.
  void resize(std::uint64_t buckets);
  /// Slots a rank may hand out while `used_` buckets are in use.
  std::uint64_t slot_limit() const noexcept { return used_ == buckets_ ? buckets_ : used_ / 4 * 3; }
  /// Empties this rank's buckets in use and its data array.
  void start_empty();
  [[noreturn]] void full(std::uint64_t home) const;

  /// A segment: the next free slot, then the buckets, then the slots.
  static constexpr std::size_t kHeaderBytes = 64;

  DistributedMemory memory_;
  MPI_Comm comm_; ///< the team's, which outlives the table
  int ranks_;
  unsigned chunk_;
  std::uint64_t buckets_; ///< per rank, a multiple of chunk_; as many slots
  std::uint64_t used_;    ///< buckets in use per rank, a multiple of chunk_
  std::size_t data_offset_;
  unsigned index_shift_;                ///< a rank's first index is rank << index_shift_
  std::uint64_t generation_ = 1;        ///< bumped when the slots are handed out anew
  TableCursor own_;                     ///< the rank's own thread's
  std::uint64_t inserted_at_clear_ = 0; ///< own_.counters.inserted then
  /// Rma path: nodes never change once published, so copies of the nodes
  /// this rank read stay valid; a direct-mapped cache saves round trips.
  struct CachedNode {
    std::uint64_t index = 0;
    Node node{};
  };
  std::vector<CachedNode> node_cache_;
};

} // namespace bdd
