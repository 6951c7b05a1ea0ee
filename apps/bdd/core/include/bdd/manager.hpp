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
#include "bdd/task_pool.hpp"
#include "bdd/work_stealing.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace bdd {

/// One thread's own state in the table (its counts and the slots it fills)
/// and its counts of cache calls: each thread of a rank has its own, and
/// the counts are added to the rank's between runs.
struct ThreadCounters {
  TableCursor table;
  CacheCounters cache;
};

/// BDD operations of one worker (a rank's thread).
class Manager {
public:
  /// Counts its table and cache calls in theirs, or in `own` if given.
  Manager(NodeTable &table, OperationCache &cache, ThreadCounters *own = nullptr)
      : table_(table), cache_(cache), own_(own) {}

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

  /// Runs the operations' recursive calls in parallel as worker `worker`
  /// of `pool` (null: sequentially, as without a pool): each operation
  /// spawns all but one of its recursive calls and computes the last
  /// itself, while fewer than `spawn_depth` spawning calls enclose it on its
  /// thread (deeper calls are too small to pay for a spawn).
  void set_task_pool(TaskPool *pool, unsigned worker, unsigned spawn_depth) noexcept {
    pool_ = pool;
    worker_ = worker;
    spawn_limit_ = spawn_depth;
  }
  /// Runs every task of `tasks` and puts their results in `results`: in
  /// parallel on the task pool if there is one and the spawn depth allows,
  /// else one after the other.
  void run_all(std::span<const Task> tasks, std::span<Edge> results);
  /// Runs a task another thread spawned at nesting depth `depth`
  /// (TaskPool's runner).
  Edge run_stolen(const Task &task, unsigned depth);

  NodeTable &table() noexcept { return table_; }
  OperationCache &cache() noexcept { return cache_; }

  /// Operations outside the Manager's own (Operation::Saturate: the
  /// strategy's recursion), run by run() on the Manager of the thread that
  /// runs the task.
  using Extension = std::function<Edge(Manager &, const Task &)>;
  /// Null: none. The extension must outlive its use.
  void set_extension(const Extension *extension) noexcept { extension_ = extension; }

  /// The operation cache's find and store, counted as this thread's.
  std::optional<Edge> cached(Operation op, Edge a, Edge b, Edge c) {
    return own_ ? cache_.find(op, a, b, c, own_->cache) : cache_.find(op, a, b, c);
  }
  void remember(Operation op, Edge a, Edge b, Edge c, Edge result) {
    if (own_)
      cache_.store(op, a, b, c, result, own_->cache);
    else
      cache_.store(op, a, b, c, result);
  }

private:
  /// Whether `task` ends in its terminal cases: not worth a spawn.
  static bool trivial(const Task &task);
  /// Whether this call spawns its recursive calls on the pool.
  bool forking() const noexcept { return pool_ && depth_ < spawn_limit_; }
  /// Runs `tasks` on this thread or others and `here()` on this one;
  /// returns here's result and puts the tasks' in `results`. A failure of
  /// any is rethrown once none of them runs any more.
  template <std::size_t N, class Here>
  Edge fork(const std::array<Task, N> &tasks, std::array<Edge, N> &results, Here &&here);
  /// The same over spans; `spawned` is scratch of the tasks' size.
  template <class Here>
  Edge fork(std::span<const Task> tasks, std::span<Edge> results, std::span<bool> spawned,
            Here &&here);
  /// The two halves of a recursion: first() here and `second` (the task
  /// that second() computes) spawned when forking; else first() and then
  /// second() on this thread, with no task in between.
  template <class First, class Second>
  std::pair<Edge, Edge> both(First &&first, const Task &second_task, Second &&second);

  NodeTable &table_;
  OperationCache &cache_;
  ThreadCounters *own_;
  WorkStealing *stealing_ = nullptr;
  const Extension *extension_ = nullptr;
  TaskPool *pool_ = nullptr;
  unsigned worker_ = 0;
  unsigned spawn_limit_ = 0;
  unsigned depth_ = 0; ///< spawning calls that enclose the current one
  /// relnext spawns its subtasks only this many domain levels deep.
  static constexpr int kSpawnDepth = 4;
  int spawn_depth_ = 0;
};

} // namespace bdd
