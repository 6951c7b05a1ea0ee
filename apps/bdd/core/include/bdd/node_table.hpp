//===- bdd/node_table.hpp - The distributed unique table ------------*- C++ -*-===//
///
/// \file
/// NodeTable: the unique table of BDD nodes, spread evenly over the ranks'
/// segments of a DistributedMemory, after the thesis's chapter 3. A node's
/// global index is its bucket: rank << shift | local bucket, so an
/// edge names a node on any rank without translation (2^shift is at least
/// the buckets of a rank: no division finds the rank of an index). A bucket is 24 bytes,
/// its control word then its node, so that a probe and the comparison that
/// follows it touch one cache line, not two (the thesis's layout, Fig. 5.4,
/// keeps them in one word pair too).
///
/// find-or-put hashes the node to a home bucket and probes linearly from
/// there. Over MPI (the Rma path) it reads a chunk of C buckets, control
/// words and nodes, with one one-sided read, so a probe of up to C buckets
/// costs one round trip; on shared memory it reads bucket by bucket. A
/// bucket's control word is 0 (empty), `fp<<2|1` (claimed
/// by an inserter that is still writing) or `fp<<2|3` (the node is there),
/// where fp is 60 bits of the node's hash. Insertion is the thesis's
/// lock-then-write protocol: compare-and-swap the control word from empty to
/// claimed, write the 16-byte node, then publish the control word as done.
/// A reader that meets a claimed bucket with its fingerprint waits for the
/// publication, so two ranks inserting the same node get the same index.
///
/// A node stays where it was put until the whole table is cleared: the
/// GarbageCollector empties every rank's segment between phases and puts the
/// live nodes back, renumbered. A table that is full even so is an error
/// (TableFull) that names the budget, so more ranks or a larger --table-mib
/// is the remedy.
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
  std::uint64_t chunks = 0;     ///< chunks of control words fetched
  std::uint64_t compared = 0;   ///< buckets whose node was read and compared
  std::uint64_t cas_failed = 0; ///< claims lost to another inserter
};

/// The distributed unique table (collective to create and destroy).
class NodeTable {
public:
  /// Bytes of one bucket: an 8-byte control word and a 16-byte node.
  static constexpr std::size_t kBucketBytes = 24;

  /// Collective over `comm`: `bytes_per_rank` of table on every rank,
  /// probed in chunks of `chunk` buckets (a power of two, 1..64).
  NodeTable(MPI_Comm comm, std::size_t bytes_per_rank, unsigned chunk, Access access);

  /// The index of the node (level, low, high), inserting it if absent.
  /// `low` must be regular. Throws TableFull.
  std::uint64_t find_or_put(const Node &node) { return find_or_put(node, counters_); }
  /// The same, counted in `counters`: a thread of a TaskPool counts in its
  /// own, since threads that shared counters would race on them.
  std::uint64_t find_or_put(const Node &node, TableCounters &counters);
  /// Adds `counters` (a thread's) to this rank's and zeroes them. Between
  /// runs of the threads only.
  void absorb(TableCounters &counters);

  /// The node with global index `index` (> 0).
  Node node(std::uint64_t index) {
    return memory_.access() == Access::Shared ? read_node(index) : remote_node(index);
  }

  /// Buckets over all ranks.
  std::uint64_t capacity() const noexcept { return buckets_ * static_cast<std::uint64_t>(ranks_); }
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
  /// Empties this rank's segment (the terminal stays) and forgets the nodes
  /// this rank read. Between phases only, as DistributedMemory::zero_local.
  void clear_local();

  const TableCounters &counters() const noexcept { return counters_; }
  DistributedMemory &memory() noexcept { return memory_; }

private:
  int rank_of(std::uint64_t index) const noexcept {
    return static_cast<int>(index >> index_shift_);
  }
  std::size_t control_offset(std::uint64_t index) const noexcept {
    return static_cast<std::size_t>(index & ((std::uint64_t{1} << index_shift_) - 1)) *
           kBucketBytes;
  }
  std::size_t node_offset(std::uint64_t index) const noexcept { return control_offset(index) + 8; }
  /// The node as stored, read now (inline: the operations' hot path).
  Node read_node(std::uint64_t index) {
    std::uint64_t w[2];
    memory_.read_words(rank_of(index), node_offset(index), 2, w);
    return Node{w[0], w[1]};
  }
  Node remote_node(std::uint64_t index);
  /// Puts the terminal in its bucket and empties the node cache, on a zeroed
  /// segment.
  void start_empty();
  [[noreturn]] void full(std::uint64_t home) const;

  DistributedMemory memory_;
  MPI_Comm comm_; ///< the team's, which outlives the table
  int ranks_;
  unsigned chunk_;
  std::uint64_t buckets_; ///< per rank, a multiple of chunk_
  unsigned index_shift_;  ///< a rank's first index is rank << index_shift_
  TableCounters counters_;
  std::uint64_t inserted_at_clear_ = 0; ///< counters_.inserted then
  /// Rma path: nodes never change once published, so copies of the nodes
  /// this rank read stay valid; a direct-mapped cache saves round trips.
  struct CachedNode {
    std::uint64_t index = 0;
    Node node{};
  };
  std::vector<CachedNode> node_cache_;
};

} // namespace bdd
