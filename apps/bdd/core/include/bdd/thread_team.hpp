//===- bdd/thread_team.hpp - The threads of one rank ----------------*- C++ -*-===//
///
/// \file
/// ThreadTeam: the threads of one rank, sharing that rank's NodeTable and
/// OperationCache (reached with CPU atomics, as other ranks reach them on
/// one node), each with a Manager of its own that spawns its operations'
/// recursive calls on a TaskPool. The rank's own Manager is worker 0 and
/// runs on the calling thread; the team makes one Manager per helper
/// thread. Each thread counts its table and cache calls in its own
/// counters (shared ones would race), and run() adds the helpers' to the
/// rank's once they are idle, so the reported figures and the node count
/// that garbage collection and cache sizing read stay exact.
///
/// The threads work only inside run(): everything between runs (garbage
/// collection, MPI collectives, counting the states) is single-threaded.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "bdd/manager.hpp"
#include "bdd/task_pool.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace bdd {

class ThreadTeam {
public:
  /// `threads` threads (> 1) for `rank_manager`'s operations, spawning
  /// while fewer than `spawn_depth` spawning calls enclose a call.
  ThreadTeam(Manager &rank_manager, unsigned threads, unsigned spawn_depth);
  /// Detaches the rank's Manager from the pool: sequential again.
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam &) = delete;
  ThreadTeam &operator=(const ThreadTeam &) = delete;

  /// Runs `compute` (which uses the rank's Manager) with every thread.
  void run(const std::function<void()> &compute);
  /// Gives every thread's Manager `extension` (Manager::set_extension).
  void set_extension(const Manager::Extension *extension);

  unsigned threads() const noexcept { return pool_.threads(); }
  /// Between runs only.
  PoolCounters counters() const { return pool_.counters(); }

private:
  Manager &rank_manager_;
  std::vector<std::unique_ptr<ThreadCounters>> counters_; ///< helper i's at i - 1
  std::vector<std::unique_ptr<Manager>> helpers_;         ///< helper i's at i - 1
  TaskPool pool_;
};

/// Runs `compute` with `threads` if there is a team, else on this thread.
inline void with_threads(ThreadTeam *threads, const std::function<void()> &compute) {
  if (threads)
    threads->run(compute);
  else
    compute();
}

} // namespace bdd
