//===- bdd/task_pool.hpp - Work stealing among the threads of a rank -*- C++ -*-===//
///
/// \file
/// TaskPool: the threads of one rank share the recursion of BDD operations,
/// Lace's way (Sylvan's scheduler): an operation spawns one part of its
/// recursion as a task on its thread's deque, computes another part itself,
/// then syncs: a task nobody stole is taken back and run inline, a stolen
/// one is waited for while the waiting thread steals from the thief
/// (leapfrogging), so it works on the stolen task's own subtasks instead of
/// idling.
///
/// Each thread (worker) owns a fixed array of task slots, filled bottom-up
/// as a stack. A slot's state word decides who runs its task: the owner
/// spawns by writing the task and then storing Ready (release); a thief
/// takes it by compare-and-swap from Ready to Stolen (with its worker
/// number), the owner takes it back by compare-and-swap from Ready to
/// Empty, so exactly one of them runs it. The thief reads the task only
/// after its swap succeeded (acquire, which pairs with the owner's release)
/// and publishes the result by storing Done (release); the owner reads the
/// result after loading Done (acquire). The owner writes a slot only while
/// its state is Empty, which no thief's swap (from Ready) can change, so
/// slot reuse is race-free even if a thief read the slot's state before the
/// reuse. Thieves take the oldest Ready task (largest subproblem), the owner
/// the newest.
///
/// Threads make no MPI calls: the operations reach the table and the cache
/// through CPU atomics (shared access) only.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "bdd/edge.hpp"
#include "bdd/work_stealing.hpp"

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace bdd {

/// What a pool's threads did, summed over them.
struct PoolCounters {
  std::uint64_t spawned = 0, steals = 0, leapfrogs = 0;
};

/// Work stealing among `threads` threads: the calling thread (worker 0)
/// and threads - 1 helpers the pool starts, which sleep between runs.
class TaskPool {
public:
  /// Runs `task`, stolen by worker `worker`, on that worker's thread;
  /// `depth` is the spawner's nesting depth (the Manager's cut-off).
  using Runner = std::function<Edge(unsigned worker, const Task &task, unsigned depth)>;
  /// Tasks a worker can have spawned and not synced; more run inline.
  static constexpr std::uint32_t kSlots = 1u << 14;

  TaskPool(unsigned threads, Runner runner);
  ~TaskPool();
  TaskPool(const TaskPool &) = delete;
  TaskPool &operator=(const TaskPool &) = delete;

  unsigned threads() const noexcept { return static_cast<unsigned>(workers_.size()); }

  /// Runs `compute` on the calling thread as worker 0 while the helpers
  /// steal its tasks; returns (or rethrows) once every helper is idle
  /// again, so that what the helpers wrote is visible to the caller.
  void run(const std::function<void()> &compute);

  /// Pushes `task` on `worker`'s deque, where others may steal it. False
  /// if the deque is full: the caller runs the task itself.
  bool spawn(unsigned worker, const Task &task, unsigned depth);
  /// Takes back `worker`'s newest spawned task: nullopt if nobody stole it
  /// (the caller runs it), else its result, waited for while helping the
  /// thief; rethrows what the task threw on the thief.
  std::optional<Edge> sync(unsigned worker);

  /// Summed over the workers; between runs only.
  PoolCounters counters() const;

private:
  struct alignas(64) Slot {
    std::atomic<std::uint32_t> state{0};
    unsigned depth = 0;
    Task task{};
    Edge result = kFalse;
    std::exception_ptr error;
  };
  struct alignas(64) Worker {
    /// Thieves look below this bound, which the owner publishes at its
    /// next spawn or sync after a thief asked (request), not at every one.
    std::atomic<std::uint32_t> top{0};
    /// Thieves start looking here: below it, tasks were stolen.
    std::atomic<std::uint32_t> oldest{0};
    /// A thief found no task below top.
    std::atomic<bool> request{false};
    alignas(64) std::uint32_t owned = 0; ///< the owner's copy of top
    std::uint64_t random = 0;
    PoolCounters counters;
    std::unique_ptr<Slot[]> slots;
  };

  /// Worker `thief` takes `victim`'s oldest Ready task and runs it; false
  /// if there was none.
  bool steal(unsigned thief, unsigned victim);
  /// The owner's side of `request`: makes its slots below owned visible.
  static void publish_if_asked(Worker &w);
  void help(unsigned me);

  Runner runner_;
  std::vector<Worker> workers_;
  std::vector<std::thread> helpers_;
  std::atomic<std::uint32_t> epoch_{0}; ///< bumped to wake the helpers
  std::atomic<bool> active_{false};     ///< a run is on: steal
  std::atomic<bool> stopping_{false};
  std::atomic<unsigned> busy_{0}; ///< helpers not yet idle after a run
};

} // namespace bdd
