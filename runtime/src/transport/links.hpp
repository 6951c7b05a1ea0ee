#pragma once
/// \file
/// The links a host sends on and receives from, and the route a message to
/// any host takes (docs/runtime.md section 11).

#include "posted_receives.hpp"

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <vector>

namespace poc::detail {

/// One pair of communicators the engine sends and receives on (requests
/// and control on `requests`, out-of-band blocks on `blocks`): the job's
/// (or a spawned batch's) world, the intercommunicator between a parent
/// and a batch it spawned, or a connection made through an MPI port.
/// Remote rank r of the link is host number `base + r`.
struct Link {
  enum class Kind {
    world,    ///< MPI_COMM_WORLD of this job or of this spawned batch
    parent,   ///< a spawned host's link to the host that spawned it
    children, ///< a parent's link to one batch it spawned
    owned,    ///< a connection this host made (closed by this host)
    accepted, ///< a connection another host made to this one
  };
  Kind kind = Kind::world;
  MPI_Comm requests = MPI_COMM_NULL;
  MPI_Comm blocks = MPI_COMM_NULL;
  int base = 0;
  int count = 0;
  /// Set when the link is being closed: no new sends choose it (the
  /// engine keeps receiving on it until it is removed).
  std::atomic<bool> closing{false};
  /// The receives posted on `requests` while the link is in the table
  /// (Links::add to Links::remove).
  std::unique_ptr<PostedReceives> posted;

  bool covers(int host) const noexcept { return host >= base && host - base < count; }
  /// True for links that exist for the whole job (not connections).
  bool permanent() const noexcept { return kind != Kind::owned && kind != Kind::accepted; }
};

class Links {
public:
  /// Duplicates MPI_COMM_WORLD into the world link's request and block
  /// communicators. World rank r is host number `world_base + r`; this host
  /// is `self`; `parent` is the host that spawned this batch (-1 for the
  /// job's own ranks).
  Links(int world_base, int self, int parent);
  /// Cancels the world link's receives and frees its communicators.
  ~Links();
  Links(const Links &) = delete;
  Links &operator=(const Links &) = delete;

  /// The link of this job's (or spawned batch's) MPI_COMM_WORLD.
  const std::shared_ptr<Link> &world() const noexcept { return world_; }

  /// Adds a link to send on and receive from: posts its receives.
  void add(std::shared_ptr<Link> link);
  /// Stops receiving and sending on `link`: cancels its posted receives
  /// (its communicators stay valid, with nothing pending on them).
  void remove(const Link *link);
  /// The open link that reaches `host`, or null.
  std::shared_ptr<Link> to(int host) const;
  /// True if `host` is reached through a permanent link (world, parent,
  /// children): no connection is needed.
  bool permanently_linked(int host) const;
  /// The links of the given kind (for the end of the job).
  std::vector<std::shared_ptr<Link>> of(Link::Kind kind) const;
  /// The link a message to `dest` leaves on: its own, or the one to `hop`,
  /// the next host on the relay path (hop == dest: no relay); null if
  /// there is no route.
  std::shared_ptr<Link> route(int dest, int &hop) const;

  /// True while the world link is the only one (read without the lock).
  bool world_only() const noexcept { return count_.load(std::memory_order_relaxed) == 1; }
  /// Calls `f(link)` for every link, with the table locked against
  /// additions and removals (so `f` must not add or remove links).
  template <class F> void for_each(F &&f) const {
    std::shared_lock g(mu_);
    for (const auto &l : links_)
      f(l);
  }

private:
  int self_;
  int parent_;
  std::shared_ptr<Link> world_;
  /// Every link, the world link first.
  mutable std::shared_mutex mu_;
  std::vector<std::shared_ptr<Link>> links_;
  /// links_.size(), read without the lock by the poller's fast path.
  std::atomic<std::size_t> count_{1};
};

} // namespace poc::detail
