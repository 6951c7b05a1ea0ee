#pragma once
/// \file
/// The MPI requests in flight that the poller completes: sends, and the
/// receives of out-of-band blocks.

#include "peer_failures.hpp"
#include "progress.hpp"

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <vector>

namespace poc::detail {

/// The sends of one message and its out-of-band blocks.
struct SendBatch {
  /// Sends not completed yet; the batch's memory may change at 0.
  int pending = 0;
  /// The memory the sends read from when the batch owns it (a started
  /// call's message and copies of its out-of-band blocks), freed when the
  /// last send's request is completed.
  std::vector<std::vector<std::byte>> owned;
  /// The owners of blocks sent from where they lie (Writer::Block::kept),
  /// released with the batch: a lent page, a started call's moved argument.
  std::vector<std::shared_ptr<const void>> kept;
};

/// What completing one request does.
struct Completion {
  /// Memory the request reads from, freed when it completes.
  std::vector<std::byte> owned;
  /// The batch the request counts in.
  std::shared_ptr<SendBatch> batch;
  /// Set to true when it completes (a waiting receiver's flag).
  bool *done = nullptr;
  /// Receives the request's status.
  MPI_Status *status = nullptr;
  /// The host a send goes to, whose failure PeerFailures reports (a
  /// receive's failure goes to its waiter through `status`).
  int peer = -1;
};

class InFlight {
public:
  InFlight(Progress &progress, PeerFailures &peer_failures)
      : progress_(progress), peer_failures_(peer_failures) {}
  InFlight(const InFlight &) = delete;
  InFlight &operator=(const InFlight &) = delete;

  /// Tracks `req` until it completes, then does `c`. A request that is
  /// already complete with nobody waiting costs no lock.
  void add(MPI_Request req, Completion c, LazyHostLock &lock);
  /// add() by a caller that does not hold the host mutex.
  void add(MPI_Request req, Completion c) {
    LazyHostLock lock(progress_);
    add(req, std::move(c), lock);
  }

  /// Completes the requests that are done (takes the mutex; the poller
  /// calls it without).
  void test();
  /// True if nothing is in flight.
  bool empty() const noexcept { return count_.load(std::memory_order_relaxed) == 0; }

  /// Cancels the pending receive that reports to `done`.
  void cancel_receive(bool *done, HostLock &lk);
  /// Cancels and forgets every request (the end of the job).
  void cancel_all();

private:
  /// Tests `req`: true if it has completed (`st` then says how).
  static bool completed(MPI_Request &req, MPI_Status &st);
  void complete(Completion &c, const MPI_Status &st, HostLock &lk);

  Progress &progress_;
  PeerFailures &peer_failures_;
  std::vector<MPI_Request> requests_;
  std::vector<Completion> completions_;
  /// requests_.size(), read without the lock by the poller.
  std::atomic<std::size_t> count_{0};
};

} // namespace poc::detail
