//===- bdd/work_stealing.hpp - Private-deque work stealing over MPI -*- C++ -*-===//
///
/// \file
/// WorkStealing: the members of a team share the recursion of one BDD
/// operation, after the thesis's chapter 4 (private deques, hierarchical
/// victims, leapfrogging), with MPI windows where the thesis used RDMA.
///
/// Each member keeps its spawned tasks in a private stack that only it
/// touches. A thief asks a victim for work by a compare-and-swap on the
/// victim's request cell (one one-sided operation); the victim notices the
/// request at its next spawn or sync, or while it waits, and answers by
/// writing its oldest unsynced task, or "none", into the thief's transfer
/// cell. The thief runs the task and writes the result into the victim's
/// result slot for it. A victim that syncs a stolen task waits for that
/// slot, and meanwhile steals back from the thief (leapfrogging), so it
/// works on the stolen task's own subtasks instead of idling. Victims are
/// tried on the thief's node first, then on the others.
///
/// Every member answers requests wherever it waits, so a thief always gets
/// an answer; the run ends when member 0's operation returns, after which
/// the members keep answering (with "none") until all of them have stopped.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "bdd/distributed_memory.hpp"
#include "bdd/edge.hpp"
#include "bdd/operation_cache.hpp"

#include <cstdint>
#include <exception>
#include <functional>
#include <random>
#include <vector>

namespace bdd {

/// A BDD operation call that can run on any member.
struct Task {
  Operation op;
  Edge a, b, c;
};

/// What one member's stealing did.
struct StealCounters {
  std::uint64_t spawned = 0, stolen_from_me = 0, steals = 0, attempts = 0, leapfrogs = 0;
};

class WorkStealing {
public:
  /// Runs a task on the calling member (the Manager's dispatch).
  using Runner = std::function<Edge(const Task &)>;

  /// Collective over `team`.
  WorkStealing(MPI_Comm team, Access access, Runner runner);
  ~WorkStealing();
  WorkStealing(const WorkStealing &) = delete;
  WorkStealing &operator=(const WorkStealing &) = delete;

  /// Answers a waiting thief now and then: called by operations that
  /// recurse without spawning, so that thieves are not kept waiting.
  void poll();

  /// Pushes `task` on this member's stack, where others may steal it.
  void spawn(const Task &task);
  /// The result of this member's most recent unsynced spawn: computed here
  /// if nobody stole it, else waited for (stealing back meanwhile).
  Edge sync();

  /// Collective: member 0 runs `root` while the other members steal its
  /// subtasks; returns root's result on member 0 (kFalse elsewhere). A
  /// failure of root, or of a task a member stole, is rethrown on that
  /// member after every member has stopped.
  Edge run(const std::function<Edge()> &root);

  const StealCounters &counters() const noexcept { return counters_; }

private:
  struct Frame {
    Task task;
    bool stolen = false;
    int thief = -1;
    std::uint64_t serial = 0;
  };

  void answer_requests();
  /// Asks `victim` for a task; runs it and returns true if one came.
  bool steal_from(int victim);
  /// Steals from the members in hierarchy order until `done` holds.
  void steal_until(const std::function<bool()> &done);
  std::uint64_t poll_interval() const noexcept;

  DistributedMemory memory_;
  Runner runner_;
  MPI_Comm team_ = MPI_COMM_NULL; ///< for the closing barrier
  int me_, members_;
  std::vector<int> victims_; ///< other members, this node's first
  std::size_t nearby_ = 0;   ///< how many of victims_ are on this node
  std::uint64_t runs_ = 0;
  std::exception_ptr failure_; ///< of a stolen task, rethrown by run()
  std::vector<Frame> stack_;
  std::size_t oldest_ = 0; ///< stack_[oldest_..] may still be stolen
  std::uint64_t serial_ = 0;
  std::uint64_t polls_ = 0;
  std::mt19937 random_;
  StealCounters counters_;
};

} // namespace bdd
