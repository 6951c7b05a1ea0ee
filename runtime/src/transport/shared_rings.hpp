#pragma once
/// \file
/// Messages between the ranks of one MPI_COMM_WORLD that share a node,
/// carried by lock-free rings in memory they all map (ShmRing), so that
/// they never enter MPI's send path, its matching or its locks (Open MPI
/// 4.1 takes them at every thread level above MPI_THREAD_SINGLE). The
/// sender copies the message into the ring; the receiver's poller reads it
/// out. Out-of-band blocks and the chunks of oversized messages still
/// travel through MPI, which moves large buffers with a single copy; their
/// announcements travel through the ring, in order with everything else.
///
/// A ring that is full does not block its sender (the receiver might be
/// waiting for the sender's own poller): the message is queued, in order,
/// and the poller moves it into the ring when there is room.
///
/// A message that may wait (a started call) and finds the ring holding
/// messages its receiver has not read yet joins the rank's open batch
/// (BatchFrame) instead: the batch goes into the ring as one message once
/// the receiver has read the others, pushed by the next send to that rank
/// or by the poller, or at once when a message that may not wait comes
/// after it. So a stream of started calls costs its receiver one message
/// per batch, and the batches grow while the receiver falls behind.

#include "batch.hpp"
#include "progress.hpp"
#include "shm_ring.hpp"

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace poc::detail {

class SharedRings {
public:
  /// The rings of this job's (or spawned batch's) `world`, collectively
  /// over it: null if no other rank shares this rank's node, if
  /// POC_SHM_RINGS=0, or if the shared memory cannot be set up (then no
  /// rank of the node uses rings). Each ring holds `POC_SHM_RING_KIB` KiB
  /// (default 128, at least 128, a power of two), as node rank 0 says.
  static std::unique_ptr<SharedRings> on_node_of(MPI_Comm world, Progress &progress);
  /// The rings of world rank `self` in `segment`, a zero-filled mapping
  /// of `segment_bytes` that this object unmaps, holding one ring of
  /// `capacity` bytes for each ordered pair of the node's ranks;
  /// `node_index` maps world ranks to node ranks (-1: another node).
  /// on_node_of makes them; a test can map one segment twice.
  SharedRings(Progress &progress, int self, std::vector<int> node_index, void *segment,
              std::size_t segment_bytes, std::size_t capacity);
  ~SharedRings();
  SharedRings(const SharedRings &) = delete;
  SharedRings &operator=(const SharedRings &) = delete;

  /// True if world rank `rank` is on this node (this rank included).
  bool reaches(int rank) const noexcept {
    return rank >= 0 && static_cast<std::size_t>(rank) < node_index_.size() &&
           node_index_[static_cast<std::size_t>(rank)] >= 0;
  }
  /// True if every rank of the world is on this node: then no message of
  /// the world link travels through MPI (only out-of-band blocks do).
  bool cover_world() const noexcept { return peers_.size() == node_index_.size(); }

  /// Sends `bytes` (at most max_message()) to world rank `rank`, which
  /// reaches() says is on this node. Never blocks: a message that finds its
  /// ring full is queued behind the others to that rank; `lock` is taken
  /// only to wake a napping poller for it. `may_wait`: the
  /// message may wait in the open batch while the ring holds unread
  /// messages (see above); either way it goes after every message sent
  /// before it to `rank`.
  void send(int rank, std::span<const std::byte> bytes, LazyHostLock &lock, bool may_wait = false);

  /// The largest message a ring carries.
  std::size_t max_message() const noexcept { return max_message_; }

  /// Consumer (the poller only): calls `take(world_rank, bytes)` for at
  /// most one message from each rank of the node (`bytes` is valid during
  /// the call); true if there was any.
  template <class Take> bool receive(Take &&take) {
    bool got = false;
    for (Peer &p : peers_)
      got |= p.in.try_pop([&](std::span<const std::byte> bytes) { take(p.rank, bytes); });
    return got;
  }

  /// Moves queued messages into their rings as far as there is room, and
  /// open batches whose receiver has read the rest (the poller, each
  /// round); true if it moved any. While the receiver reads nothing, the
  /// poller backs off as when idle (docs/runtime.md section 7, "Idle
  /// back-off"), so that it does not take the core the receiver needs.
  bool move_queued();
  /// True if some message waits in a queue or an open batch.
  bool queued() const noexcept { return queued_peers_.load(std::memory_order_acquire) > 0; }

private:
  /// This rank's two rings with a rank of the node (for itself, two views
  /// of the one ring to itself).
  struct Peer {
    int rank;
    ShmRing out; ///< producer side of the ring to `rank`
    ShmRing in;  ///< consumer side of the ring from `rank`
    /// Serialises this rank's threads as the ring's one producer.
    std::mutex producing;
    /// Messages waiting for room in `out`, oldest first (under `producing`).
    std::deque<std::vector<std::byte>> waiting;
    /// Messages that may wait, sent after `waiting`'s, waiting for the
    /// receiver to read what `out` holds (under `producing`).
    BatchFrame open;
    /// Whether `waiting` and `open` hold messages, for the poller's look
    /// without the lock (written under `producing`).
    std::atomic<bool> has_waiting{false}, has_open{false};
    bool queued() const noexcept { return !waiting.empty() || !open.empty(); }
  };

  /// Publishes what `p` now holds (has_waiting, has_open, queued_peers_)
  /// after a change; `was_queued`: whether it held anything before it
  /// (caller holds p.producing). True if it holds something and did not.
  bool note_queued(Peer &p, bool was_queued) noexcept;

  /// Moves `p`'s waiting messages into its ring while they fit, then its
  /// open batch if the receiver has read the rest or `open_now` (if it
  /// does not fit then, it waits behind the others, closed, so that what
  /// comes next goes after it); true if nothing waits afterwards (caller
  /// holds p.producing).
  static bool move_waiting(Peer &p, bool open_now);

  Progress &progress_;
  /// World rank -> index on this node, -1 for ranks on other nodes.
  std::vector<int> node_index_;
  void *segment_;
  std::size_t segment_bytes_;
  std::size_t max_message_;
  /// One per rank of the node, indexed by world rank through peer_of_.
  std::deque<Peer> peers_;
  std::vector<Peer *> peer_of_;
  /// Peers with queued messages.
  std::atomic<int> queued_peers_{0};
};

} // namespace poc::detail
