#pragma once
/// \file
/// The transport of one host (MPI rank): its links (Links), the waiting
/// and polling of its threads (Progress), the MPI requests in flight
/// (InFlight), out-of-band blocks (Blocks), the rings to the other ranks of
/// its world on the same node (SharedRings) and sends (Sender), and the
/// receiving side the poller runs: a message that arrives is checked,
/// unwrapped (relays and oversized messages) and handed to the router.

#include "blocks.hpp"
#include "check_mpi.hpp"
#include "in_flight.hpp"
#include "links.hpp"
#include "message.hpp"
#include "peer_failures.hpp"
#include "progress.hpp"
#include "sender.hpp"
#include "shared_rings.hpp"
#include "wire.hpp"

#include <mpi.h>

#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace poc::detail {

class Engine {
public:
  /// Receives every well-formed message that arrives on any link's request
  /// communicator (called by the poller without the host mutex held), in
  /// the order they arrived: one, or the messages of a batch (BatchFrame),
  /// all at once. Relays and oversized messages are unwrapped or forwarded
  /// before, and malformed messages reported and dropped. `link` is where
  /// they arrived (null for a relayed message, which never has out-of-band
  /// blocks).
  using Router = std::function<void(std::span<std::unique_ptr<Message>> messages,
                                    const std::shared_ptr<Link> &link)>;

  /// World rank r is host number `world_base + r`; `parent` is the host
  /// that spawned this batch (-1 for the job's own ranks).
  explicit Engine(int world_base = 0, int parent = -1);
  Engine(const Engine &) = delete;
  Engine &operator=(const Engine &) = delete;

  /// This host's number (its world rank, or base + rank for a spawned host).
  int rank() const noexcept { return self_; }
  /// Hosts in this process's MPI_COMM_WORLD.
  int size() const noexcept { return links_.world()->count; }
  /// The host that spawned this one, -1 for the job's own ranks.
  int parent() const noexcept { return parent_; }

  Progress &progress() noexcept { return progress_; }
  PeerFailures &peer_failures() noexcept { return peer_failures_; }
  Links &links() noexcept { return links_; }
  Blocks &blocks() noexcept { return blocks_; }
  Sender &sender() noexcept { return sender_; }

  void set_router(Router router) { router_ = std::move(router); }

  /// Waits (bounded) until every send posted has completed and every
  /// message queued for a shared ring is in it; cancels the rest.
  void flush(std::chrono::milliseconds timeout);

private:
  /// One round of polling (Progress::Poll): at most one message per link
  /// and per shared ring, then the requests in flight and the messages
  /// queued for room in a ring. Reports failures instead of throwing.
  bool poll() noexcept;
  bool poll_once();
  /// Takes the next message that arrived on `link`'s request
  /// communicator, if any; sets the sender's host number and the tag. A
  /// message that could not be received is reported and dropped.
  std::optional<std::vector<std::byte>> receive_from(const Link &link, int &source, int &tag);
  /// deliver() for a message from world rank `source` read out of its
  /// shared ring (`message` is valid only during the call).
  void deliver_from_ring(int source, std::span<const std::byte> message);
  /// Checks one received message and hands it to the router, or forwards
  /// or unwraps a relay, an oversized message or a batch.
  void deliver(int source, std::optional<int> tag, std::vector<std::byte> bytes,
               const std::shared_ptr<Link> &link);
  /// The message `bytes` from host `source` that arrived on `link` (null:
  /// carried by a relay) with `tag` (std::nullopt: not checked); null,
  /// reported on stderr, if it is malformed.
  std::unique_ptr<Message> parse(int source, std::vector<std::byte> bytes,
                                 const std::shared_ptr<Link> &link, std::optional<int> tag);
  /// The message an `oversized` announcement from host `source` on `link`
  /// stands for, received from its out-of-band chunks by the poller itself
  /// (it must not wait through Progress, whose poller it is). Throws
  /// decode_error if a chunk does not arrive within the block timeout.
  std::vector<std::byte> receive_oversized(Message &announcement, const Link &link);
  /// Reports the malformed message from host `source` that is dropped.
  void report_malformed(int source, const std::exception &e);
  /// Hands the messages in the body of a batch from host `source` to the
  /// router at once; a malformed one is reported and dropped, and so is the
  /// rest of a batch whose records are malformed.
  void deliver_batch(int source, std::span<const std::byte> body,
                     const std::shared_ptr<Link> &link);

  int self_ = 0;
  int parent_ = -1;
  Progress progress_;
  PeerFailures peer_failures_;
  Links links_;
  InFlight in_flight_;
  Blocks blocks_;
  /// Null when no other rank of this world shares the node.
  std::unique_ptr<SharedRings> rings_;
  Sender sender_;
  Router router_;
};

} // namespace poc::detail
