//===- bdd/manager.hpp - BDD operations over the distributed table --*- C++ -*-===//
///
/// \file
/// Manager: the BDD operations of one worker, on nodes in the distributed
/// NodeTable and results memoized in the distributed OperationCache, so that
/// every worker can use every BDD any worker made. Each recursive operation
/// reads as terminal cases -> cache lookup -> recursion -> make node ->
/// cache store (Sylvan's shape; thesis Algorithm 5.1 for ITE).
///
/// Variables are levels: 0 is the top. Reachability uses the interleaved
/// order of the models: a state bit x is an even level 2i and its next-state
/// copy x' is 2i+1.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "bdd/big_count.hpp"
#include "bdd/edge.hpp"
#include "bdd/node_table.hpp"
#include "bdd/operation_cache.hpp"
#include "bdd/work_stealing.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace bdd {

/// BDD operations of one worker.
class Manager {
public:
  Manager(NodeTable &table, OperationCache &cache) : table_(table), cache_(cache) {}

  /// The node (level, low, high), reduced and canonical.
  Edge make(Level level, Edge low, Edge high);
  /// The function of one variable.
  Edge variable(Level level) { return make(level, kFalse, kTrue); }
  /// The conjunction of the given variables (any order, no duplicates).
  Edge cube(std::span<const Level> levels);

  Level level(Edge e) { return is_constant(e) ? kTerminalLevel : table_.node(index_of(e)).level(); }
  /// The cofactors of `e` on level `at` (e itself twice if e is below it).
  Cofactors cofactors_at(Edge e, Level at);

  Edge negate(Edge f) const noexcept { return complement(f); }
  Edge apply_and(Edge f, Edge g);
  Edge apply_or(Edge f, Edge g) { return complement(apply_and(complement(f), complement(g))); }
  /// f and not g.
  Edge difference(Edge f, Edge g) { return apply_and(f, complement(g)); }
  /// if f then g else h.
  Edge ite(Edge f, Edge g, Edge h);
  /// f with the variables of `variables` (a cube) quantified existentially.
  Edge exists(Edge f, Edge variables);
  /// The successors of `states` under `relation`: on the levels of
  /// `variables` (a cube of x and x' levels) the relation maps x to x';
  /// every other state bit keeps its value. The result is over x levels.
  Edge relnext(Edge states, Edge relation, Edge variables);

  /// The number of assignments to `variables` (sorted levels) satisfying f.
  /// Throws std::invalid_argument if f depends on a level not listed.
  BigCount count(Edge f, std::span<const Level> variables);
  /// Nodes of f, the terminal not counted.
  std::uint64_t node_count(Edge f);

  /// Lets the team's other members steal relnext's subtasks (null: none).
  void set_work_stealing(WorkStealing *stealing) noexcept { stealing_ = stealing; }
  /// Runs a task another member spawned (WorkStealing's runner).
  Edge run(const Task &task);

  NodeTable &table() noexcept { return table_; }
  OperationCache &cache() noexcept { return cache_; }

private:
  NodeTable &table_;
  OperationCache &cache_;
  WorkStealing *stealing_ = nullptr;
  /// relnext spawns its subtasks only this many domain levels deep.
  static constexpr int kSpawnDepth = 4;
  int spawn_depth_ = 0;
};

} // namespace bdd
