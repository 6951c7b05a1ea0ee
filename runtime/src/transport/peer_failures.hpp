#pragma once
/// \file
/// MPI calls that fail because of the host at the other end. A host that
/// died must be reported as that death, naming it, whichever part of the
/// runtime notices first: the watchdog (SpawnedHosts::check_alive), a send
/// that fails, or a receive or a request's completion that fails. Open MPI
/// says only "MPI_ERR_INTERN" then, and an error that does not say a
/// machine died cannot start a re-deploy (docs/runtime.md section 11).

#include "progress.hpp"

#include <mpi.h>

#include <functional>
#include <string>

namespace poc::detail {

class PeerFailures {
public:
  /// Told that an MPI call involving host `peer` failed (`failure` says
  /// which call and MPI's error), with the host mutex held. It ends the
  /// job, naming the host, if the host died or cannot be reached; it
  /// returns if it knows nothing about that host.
  using Handler = std::function<void(int peer, const std::string &failure, HostLock &lk)>;

  PeerFailures(int self, Progress &progress) : self_(self), progress_(progress) {}
  PeerFailures(const PeerFailures &) = delete;
  PeerFailures &operator=(const PeerFailures &) = delete;

  /// Installs the handler (before any thread sends or receives).
  void set_handler(Handler handler) { handler_ = std::move(handler); }

  /// Nothing if `rc` is MPI_SUCCESS. Otherwise the MPI call `what` with
  /// host `peer` failed: the handler runs (and ends the job if the host
  /// died); if it returns, throws std::runtime_error naming the call, the
  /// host and MPI's error.
  void check(int rc, const char *what, int peer) {
    if (rc != MPI_SUCCESS) {
      LazyHostLock lock(progress_);
      fail(rc, what, peer, lock);
    }
  }
  /// check() where the host mutex may already be held.
  void check(int rc, const char *what, int peer, LazyHostLock &lock) {
    if (rc != MPI_SUCCESS)
      fail(rc, what, peer, lock);
  }

  /// For a failure that only the poller sees (a request that completed
  /// with an error), where nobody can take an exception: the handler runs,
  /// and if it returns the failure is reported on stderr.
  void report(int rc, const char *what, int peer, HostLock &lk);

private:
  [[noreturn]] void fail(int rc, const char *what, int peer, LazyHostLock &lock);
  /// "MPI_Isend to host 3 failed: MPI_ERR_INTERN: internal error", after
  /// the handler has run.
  std::string handle(int rc, const char *what, int peer, HostLock &lk);

  int self_;
  Progress &progress_;
  Handler handler_;
};

} // namespace poc::detail
