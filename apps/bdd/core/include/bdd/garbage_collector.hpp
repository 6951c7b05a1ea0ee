//===- bdd/garbage_collector.hpp - Collecting the node table ---------*- C++ -*-===//
///
/// \file
/// GarbageCollector: frees the nodes no root reaches, between the levels of
/// a reachability run, so that a run may create many more nodes than the
/// table holds at once (collision.4's BFS does).
///
/// A node's index is its bucket, and its bucket follows from its children's
/// indices, so nodes cannot be freed where they lie: a freed bucket would
/// break the probe sequences that pass over it. A collection therefore
/// renumbers. Member 0 marks the nodes reachable from the roots, depth
/// first, and keeps a copy of them, children before parents; every member
/// empties its segment of the table and of the operation cache (whose
/// entries name old indices); then member 0 puts the copies back, each with
/// its children's new indices, and every member receives the roots
/// renumbered. Edges held anywhere else are invalid after a collection, so
/// it runs only where the caller holds every live edge: between the levels
/// of BFS and the sweeps of chaining. Saturation keeps its intermediate
/// results on the recursion's stack and never collects.
///
/// When: a collection is due once the nodes put since the last one have
/// used half of the room that collection left free. It costs time in
/// proportion to the live nodes, and each one is followed by at least as
/// many new nodes as there were free buckets to share, so collections stay
/// rare when most nodes live, and never happen in a table that is big
/// enough. A level that fills the table anyway is run again after a
/// collection (reachability.cpp).
///
//===----------------------------------------------------------------------===//
#pragma once

#include "bdd/edge.hpp"
#include "bdd/node_table.hpp"
#include "bdd/operation_cache.hpp"

#include <mpi.h>

#include <cstdint>
#include <span>

namespace bdd {

/// What the collections of one run did (the same on every member).
struct CollectionCounters {
  std::uint64_t collections = 0;
  std::uint64_t live = 0; ///< nodes kept by the last collection
  double seconds = 0;     ///< spent collecting, all collections
};

class GarbageCollector {
public:
  /// Collective over `team`, which shares `table` and `cache`.
  GarbageCollector(MPI_Comm team, NodeTable &table, OperationCache &cache);

  /// Whether a table holding `nodes` (NodeTable::nodes) has filled enough
  /// since the last collection (the rule in the file comment).
  bool due(std::uint64_t nodes) const noexcept;

  /// Collective: keeps the nodes reachable from member 0's `roots` and
  /// replaces every member's `roots` by member 0's, renumbered. Every other
  /// edge into the table is invalid afterwards.
  void collect(std::span<Edge> roots);

  const CollectionCounters &counters() const noexcept { return counters_; }

private:
  MPI_Comm team_;
  NodeTable &table_;
  OperationCache &cache_;
  int member_ = 0;
  CollectionCounters counters_;
};

} // namespace bdd
