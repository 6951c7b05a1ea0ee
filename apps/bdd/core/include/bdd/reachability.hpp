//===- bdd/reachability.hpp - Symbolic reachability strategies -----*- C++ -*-===//
///
/// \file
/// The reachable states of a Model, by one of three strategies, computed by
/// a team of workers that share one distributed table and cache:
///
///  * Bfs: breadth-first, one level per step (the thesis's Algorithm 5.3).
///    The groups are divided among the team's members: each member computes
///    the new successors of the frontier under its groups, and member 0
///    unites them. Depth is the number of BFS levels, the initial states'
///    level 0 included (as the thesis's Fig. 5.14 counts it).
///  * Chain: breadth-first with chaining: within a sweep each group is
///    applied to the states found so far, including those the sweep's
///    earlier groups just found. Fewer, larger steps.
///  * Saturation (Ciardo; Sylvan's bddmc "sat"): groups sorted by their top
///    level; a node is saturated once every group starting at or below its
///    level has reached a fixpoint on it. Beyond the thesis.
///
/// Chain and saturation run on member 0; with a WorkStealing the other
/// members steal the subtasks of its relnext calls (docs/bdd.md); with a
/// ThreadTeam the threads of each rank share its members' work. Bfs and
/// Chain hold every live set between their levels, which is where a
/// GarbageCollector can run.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "bdd/garbage_collector.hpp"
#include "bdd/manager.hpp"
#include "bdd/model.hpp"
#include "bdd/team.hpp"
#include "bdd/thread_team.hpp"

#include <mpi.h>

#include <functional>
#include <string>

namespace bdd {

enum class Strategy { Bfs, Chain, Saturation };

/// Parses "bfs", "chain" or "sat"; throws std::invalid_argument.
Strategy parse_strategy(const std::string &text);

/// Called on member 0 after each level (Bfs) or sweep (Chain).
using LevelReport = std::function<void(unsigned level, Edge visited)>;

/// The outcome, meaningful on member 0.
struct ReachResult {
  Edge states = kFalse;
  unsigned depth = 0; ///< Bfs: levels (1 + the longest distance); Chain: sweeps; Saturation: 0
};

/// Collective over `team` (every member passes the same model edges).
/// If a member fails (TableFull, say), every member stops at the end of the
/// current level and the failing member rethrows its exception; the others
/// throw PeerFailed (bdd/team.hpp). With a `collector`, Bfs and Chain
/// collect garbage between levels, and run a level that filled the table
/// again after a collection; Saturation never collects. With `threads`,
/// each member computes its part of every step with the threads of its
/// rank (`manager` is their worker 0).
ReachResult reach(Manager &manager, Model model, Strategy strategy, MPI_Comm team,
                  const LevelReport &report, GarbageCollector *collector = nullptr,
                  WorkStealing *stealing = nullptr, ThreadTeam *threads = nullptr);

} // namespace bdd
