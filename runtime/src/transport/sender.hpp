#pragma once
/// \file
/// Sends: every message leaves on the link that reaches its destination
/// (relayed along permanent links if none does): through the shared ring
/// to a rank of the same world on this node (SharedRings), else as
/// MPI_Isend; its out-of-band blocks leave beside it as MPI_Isend. The
/// poller completes the requests (InFlight), so two ranks sending large
/// messages to each other cannot deadlock.

#include "blocks.hpp"
#include "in_flight.hpp"
#include "links.hpp"
#include "peer_failures.hpp"
#include "shared_rings.hpp"
#include "wire.hpp"

#include <poc/serialize.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace poc::detail {

class Sender {
public:
  /// `rings` may be null (no other rank of the world on this node).
  Sender(int self, Progress &progress, Links &links, Blocks &blocks, InFlight &in_flight,
         PeerFailures &peer_failures, SharedRings *rings)
      : self_(self), progress_(progress), links_(links), blocks_(blocks), in_flight_(in_flight),
        peer_failures_(peer_failures), rings_(rings) {}
  Sender(const Sender &) = delete;
  Sender &operator=(const Sender &) = delete;

  /// Sends the message `bytes` (kept until the send completes) to host
  /// `dest`, on `via` if given, else on the link that reaches it, else
  /// relayed hop by hop along permanent links (docs/runtime.md section 11).
  void send_owned(int dest, std::vector<std::byte> bytes, const Link *via = nullptr) {
    LazyHostLock lock(progress_);
    send_owned(dest, std::move(bytes), via, lock);
  }
  /// send_owned by a caller that holds the host mutex (e.g. the router).
  void send_owned(int dest, std::vector<std::byte> bytes, HostLock &lk, const Link *via = nullptr) {
    LazyHostLock lock(lk);
    send_owned(dest, std::move(bytes), via, lock);
  }
  /// A message of kind `kind` with `head` and `body`, sent as send_owned.
  template <class Head>
  void send(int dest, Kind kind, const Head &head, std::span<const std::byte> body = {}) {
    send_owned(dest, frame(kind, head, body));
  }
  /// send() by a caller that holds the host mutex.
  template <class Head>
  void send(int dest, Kind kind, const Head &head, std::span<const std::byte> body, HostLock &lk,
            const Link *via = nullptr) {
    send_owned(dest, frame(kind, head, body), lk, via);
  }

  /// What send_writer does with the writer's bytes and blocks.
  /// Blocks whose memory the writer's keepers keep alive (Block::kept) are
  /// never copied: the batch keeps their owners instead, and a message
  /// whose blocks are all kept is sent as by `copy` whatever is asked.
  enum class Sending {
    take,     ///< the engine takes the bytes (no blocks: nothing to wait for)
    keep,     ///< sends from the writer and the blocks' memory: wait for the batch
    copy,     ///< copies the blocks, the batch owns everything: nothing to wait for
              ///< (without blocks: as take)
    may_wait, ///< as copy; a message without blocks to a rank on this node
              ///< may wait while its ring holds unread messages, to travel
              ///< with others sent meanwhile in one batch (SharedRings)
  };
  /// Sends the message in `w` (begun with reserve_frame<Head>) as kind
  /// `kind` with `head`, announcing its out-of-band blocks. Returns the
  /// batch to wait for before `w` and the blocks' memory may change, or null
  /// if there is nothing to wait for. A message with blocks needs a link to
  /// `dest` (see send_batch); `take` turns into `keep` for it,
  /// `may_wait` into `copy`. `flow`: the
  /// request's trace flow number (Envelope::flow).
  template <class Head>
  std::shared_ptr<SendBatch> send_writer(int dest, Kind kind, const Head &head, Writer &w,
                                         Sending how, std::uint32_t flow = 0) {
    Envelope e;
    e.kind = kind;
    e.flow = flow;
    blocks_.announce(dest, w.out_of_band(), e);
    seal(w, e, head);
    return send_sealed(dest, w, how);
  }

  /// Sends a message and its out-of-band blocks from caller memory; the
  /// batch counts the unfinished sends: wait until `batch->pending == 0`
  /// before the memory may change. The message's envelope announces the
  /// blocks (Blocks::announce). `dest` must be reached by a link (requests
  /// acquire a connection first; see Connections).
  void send_batch(int dest, std::span<const std::byte> message,
                  std::span<const Writer::Block> blocks, std::shared_ptr<SendBatch> batch);

  /// Sends `bytes` to world host `dest` exactly as given, framed or not,
  /// on the path a message to it takes (its shared ring, or the request
  /// communicator with `tag`), and returns once they are sent: the way
  /// tests inject malformed messages.
  void send_unframed(int dest, int tag, std::span<const std::byte> bytes);

private:
  void send_owned(int dest, std::vector<std::byte> bytes, const Link *via, LazyHostLock &lock,
                  bool may_wait = false);
  /// send_writer after sealing.
  std::shared_ptr<SendBatch> send_sealed(int dest, Writer &w, Sending how);
  /// Posts the send of `bytes` to `host` on `link`; keeps them until sent.
  /// `may_wait`: as Sending::may_wait.
  void isend_owned(const Link &link, int host, std::vector<std::byte> bytes, LazyHostLock &lock,
                   bool may_wait);
  /// Sends the message `bytes`, larger than the link's posted receives
  /// take, as an `oversized` announcement on the request communicator
  /// followed by its bytes as out-of-band chunks; each send counts in
  /// `batch` (which the caller has already counted them into).
  void send_oversized(const Link &link, int host, std::span<const std::byte> bytes,
                      const std::shared_ptr<SendBatch> &batch, LazyHostLock &lock);
  /// The MPI sends a message of `bytes` to `host` on `link` costs, its
  /// out-of-band blocks aside: the message itself unless a ring carries
  /// it, and the chunks of an oversized one.
  int message_sends(const Link &link, int host, std::size_t bytes) const noexcept {
    return (by_ring(link, host) ? 0 : 1) +
           (bytes > PostedReceives::kSlotBytes ? static_cast<int>(chunks_of(bytes)) : 0);
  }
  /// True if a message (not its blocks) to `host` on `link` goes through
  /// a shared ring.
  bool by_ring(const Link &link, int host) const noexcept {
    return rings_ && link.kind == Link::Kind::world && rings_->reaches(host - link.base);
  }
  /// Sends the message `bytes` (at most PostedReceives::kSlotBytes) to
  /// `host` on `link`: through its ring, or as MPI_Isend on `tag` counted
  /// in `batch` (which the caller has already counted it into) and keeping
  /// `owned` until it completes. `may_wait`: as Sending::may_wait.
  void post_message(const Link &link, int host, std::span<const std::byte> bytes, int tag,
                    std::vector<std::byte> owned, const std::shared_ptr<SendBatch> &batch,
                    LazyHostLock &lock, bool may_wait = false);

  int self_;
  Progress &progress_;
  Links &links_;
  Blocks &blocks_;
  InFlight &in_flight_;
  PeerFailures &peer_failures_;
  SharedRings *rings_;
};

} // namespace poc::detail
