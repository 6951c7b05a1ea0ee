#pragma once
/// \file
/// The progress engine of one host (MPI rank): every thread that must wait
/// (for a reply, for mail, for a send to complete, for a barrier) waits
/// through `wait_until`. One of the waiting threads at a time is the
/// *poller*: it probes MPI, receives what arrived and hands it to the
/// router, and completes outstanding sends; the others sleep on their own
/// condition variable until their predicate holds or the poller role is
/// handed to them (leader/followers). There is no progress thread, so with
/// one process per rank a request runs on the thread that received it.

#include <mpi.h>

#include "message.hpp"

#include <poc/serialize.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <unordered_map>
#include <vector>

namespace poc::detail {

/// How eagerly a waiting thread takes the poller role.
enum class WaitRole {
  /// A process's thread (or the caller of a remote method): polls whenever
  /// nobody else does.
  process,
  /// A host's otherwise idle main thread: polls only while no process
  /// thread waits, so that requests run on the thread that receives them.
  idle,
};

/// MPI tags on the request communicator (kHelloTag: a parent's first
/// message to the hosts it spawned, before either side's engine polls).
enum : int { kRequestTag = 1, kReplyTag = 2, kHelloTag = 3 };

/// The tag a message of kind `k` travels with: replies have their own, so
/// a thread waiting for one is never queued behind requests.
constexpr int tag_of(Kind k) noexcept { return k == Kind::reply ? kReplyTag : kRequestTag; }

/// One pair of communicators the engine sends and probes on (requests and
/// control on `requests`, out-of-band blocks on `blocks`): the job's (or a
/// spawned batch's) world, the intercommunicator between a parent and a
/// batch it spawned, or a connection made through an MPI port. Remote rank
/// r of the link is host number `base + r` (docs/runtime.md section 11).
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
  /// engine keeps probing it until it is removed).
  std::atomic<bool> closing{false};

  bool covers(int host) const noexcept { return host >= base && host - base < count; }
  /// True for links that exist for the whole job (not connections).
  bool permanent() const noexcept { return kind != Kind::owned && kind != Kind::accepted; }
};

class Engine {
public:
  /// Receives every well-formed message that arrives on any link's request
  /// communicator (called by the poller without the engine mutex held);
  /// relays are unwrapped or forwarded before, and malformed messages
  /// reported and dropped. `link` is where it arrived (null for a relayed
  /// message, which never has out-of-band blocks).
  using Router =
      std::function<void(std::unique_ptr<Message> message, const std::shared_ptr<Link> &link)>;

  /// Duplicates MPI_COMM_WORLD into the world link's request and block
  /// communicators. World rank r is host number `world_base + r`; `parent`
  /// is the host that spawned this batch (-1 for the job's own ranks).
  explicit Engine(int world_base = 0, int parent = -1);
  ~Engine();
  Engine(const Engine &) = delete;
  Engine &operator=(const Engine &) = delete;

  /// This host's number (its world rank, or base + rank for a spawned host).
  int rank() const noexcept { return self_; }
  /// Hosts in this process's MPI_COMM_WORLD.
  int size() const noexcept { return size_; }
  /// Host number of world rank 0.
  int world_base() const noexcept { return world_base_; }
  /// The host that spawned this one, -1 for the job's own ranks.
  int parent() const noexcept { return parent_; }

  /// Adds a link to send on and probe.
  void add_link(std::shared_ptr<Link> link);
  /// Stops probing and sending on `link` (its communicators stay valid).
  void remove_link(const Link *link);
  /// The open link that reaches `host`, or null.
  std::shared_ptr<Link> link_to(int host) const;
  /// True if `host` is reached through a permanent link (world, parent,
  /// children): no connection is needed.
  bool permanently_linked(int host) const;
  /// The links of the given kind (for the end of the job).
  std::vector<std::shared_ptr<Link>> links_of(Link::Kind kind) const;

  /// The host-wide mutex: guards the engine and all routed state.
  std::mutex &mutex() noexcept { return mu_; }

  void set_router(Router router) { router_ = std::move(router); }

  /// `check` runs every 100 ms or so, with the mutex held, on the thread
  /// that polls (Host::check_spawned_hosts_locked).
  void set_watchdog(std::function<void()> check) { watchdog_ = std::move(check); }

  /// Returns (with `lk` held) once `pred()` holds; `pred` is evaluated with
  /// the mutex held, by this thread or by the poller.
  template <class Pred>
  void wait_until(std::unique_lock<std::mutex> &lk, Pred &&pred,
                  WaitRole role = WaitRole::process) {
    if (pred())
      return;
    std::function<bool()> fn = std::ref(pred);
    wait_impl(lk, fn, role);
  }

  /// Wakes the waiters whose predicate now holds. Call with the mutex held
  /// after changing state that predicates read.
  void notify_locked();

  /// Sends the message `bytes` (which the engine keeps until the send
  /// completes) to host `dest`, on `via` if given, else on the link that
  /// reaches it, else relayed hop by hop along permanent links (section
  /// 11). `locked`: the caller holds the mutex (e.g. the router).
  void send_owned(int dest, std::vector<std::byte> bytes, bool locked = false,
                  const Link *via = nullptr);
  /// A message of kind `kind` with `head` and `body`, sent as send_owned.
  template <class Head>
  void send(int dest, Kind kind, const Head &head, std::span<const std::byte> body = {},
            bool locked = false, const Link *via = nullptr) {
    send_owned(dest, frame(kind, head, body), locked, via);
  }

  /// The sends of one message and its out-of-band blocks.
  struct SendBatch {
    int pending = 0;
    /// The memory the sends read from when the batch owns it (a started
    /// call's message and copies of its out-of-band blocks), freed when the
    /// engine drops the batch after the last send.
    std::vector<std::vector<std::byte>> owned;
  };
  /// What send_writer does with the writer's bytes and blocks.
  enum class Sending {
    take, ///< the engine takes the bytes (no blocks: nothing to wait for)
    keep, ///< sends from the writer and the blocks' memory: wait for the batch
    copy, ///< copies the blocks, the batch owns everything: nothing to wait for
          ///< (without blocks: as take)
  };
  /// Sends the message in `w` (begun with reserve_frame<Head>) as kind
  /// `kind` with `head`, announcing its out-of-band blocks. Returns the
  /// batch to wait for before `w` and the blocks' memory may change, or null
  /// if there is nothing to wait for. A message with blocks needs a link to
  /// `dest` (see send_batch); `take` turns into `keep` for it.
  template <class Head>
  std::shared_ptr<SendBatch> send_writer(int dest, Kind kind, const Head &head, Writer &w,
                                         Sending how) {
    Envelope e;
    e.kind = kind;
    announce_blocks(dest, w.out_of_band(), e);
    seal(w, e, head);
    return send_sealed(dest, w, how);
  }

  /// Sends a message and its out-of-band blocks from caller memory; the
  /// batch counts the unfinished sends: wait with
  /// `wait_until(lk, [&]{ return batch->pending == 0; })` before the memory
  /// may change. The message's envelope announces the blocks (announce_blocks).
  /// `dest` must be reached by a link (requests acquire a connection
  /// first; see Connections).
  void send_batch(int dest, std::span<const std::byte> message,
                  std::span<const Writer::Block> blocks, std::shared_ptr<SendBatch> batch);

  /// Announces `blocks` in the envelope `e` of a message to `dest`: their
  /// chunk count (chunks_of) and the first of the tags reserved for them.
  /// Throws usage_error beyond 65535 chunks.
  void announce_blocks(int dest, std::span<const Writer::Block> blocks, Envelope &e);
  /// Tag of the i-th out-of-band message after `first`.
  std::uint32_t block_tag(std::uint32_t first, unsigned i) const noexcept {
    return static_cast<std::uint32_t>((std::uint64_t{first} + i) % block_tag_space_);
  }

  /// Receives one out-of-band message of exactly `n` bytes from host
  /// `source` on `link` with `tag` into `dst`, waiting through the engine. Throws decode_error
  /// if its size differs or it does not arrive within the block timeout
  /// (POC_BLOCK_TIMEOUT_MS, default 10 s: an envelope that announces blocks
  /// nobody sends must not stall the process forever).
  void receive_block(const Link &link, int source, std::uint32_t tag, void *dst, std::size_t n);

  /// The size of the out-of-band message (`source`, `tag`) once it has
  /// arrived (probing, without receiving it); std::nullopt if it does not
  /// arrive within the block timeout.
  std::optional<std::size_t> probe_block(const Link &link, int source,
                                         std::uint32_t tag) const noexcept;

  /// Receives and discards the out-of-band message (`source`, `tag`) if it
  /// arrives within `timeout`; false if it did not.
  bool discard_block(const Link &link, int source, std::uint32_t tag,
                     std::chrono::milliseconds timeout) noexcept;

  /// The world link's communicator requests, replies and control messages travel on.
  MPI_Comm requests() const noexcept { return world_->requests; }
  /// The world link's communicator out-of-band blocks travel on.
  MPI_Comm blocks() const noexcept { return world_->blocks; }

  /// Waits (bounded) until every send posted has completed; cancels the rest.
  void flush(std::chrono::milliseconds timeout);

private:
  /// send_writer after sealing.
  std::shared_ptr<SendBatch> send_sealed(int dest, Writer &w, Sending how);
  /// Runs the watchdog if it is due (mutex held).
  void watch_locked();
  std::function<void()> watchdog_;
  std::chrono::steady_clock::time_point watched_at_ = std::chrono::steady_clock::now();
  unsigned watch_rounds_ = 0;
  struct Waiter {
    std::condition_variable cv;
    const std::function<bool()> *pred;
    WaitRole role;
  };
  struct Op {
    std::vector<std::byte> owned;
    std::shared_ptr<SendBatch> batch;
    bool *done = nullptr;
    MPI_Status *status = nullptr;
  };

  void wait_impl(std::unique_lock<std::mutex> &lk, const std::function<bool()> &pred,
                 WaitRole role);
  void lead(std::unique_lock<std::mutex> &lk, Waiter &self);
  void hand_off(Waiter *self);
  bool progress_once();
  /// Receives one message waiting on `link`'s request communicator, if any;
  /// sets the sender's host number and the tag.
  std::optional<std::vector<std::byte>> receive_from(const Link &link, int &source, int &tag);
  /// Checks one received message and hands it to the router, or forwards
  /// or unwraps a relay.
  void deliver(int source, int tag, std::vector<std::byte> bytes,
               const std::shared_ptr<Link> &link);
  /// The message `bytes` from host `source` that arrived on `link` (null:
  /// carried by a relay) with `tag` (std::nullopt: not checked); null,
  /// reported on stderr, if it is malformed.
  std::unique_ptr<Message> parse(int source, std::vector<std::byte> bytes,
                                 const std::shared_ptr<Link> &link, std::optional<int> tag);
  /// The link a message to `dest` leaves on: its own, or the one to `hop`,
  /// the next host on the relay path (hop == dest: no relay).
  std::shared_ptr<Link> route_to(int dest, int &hop) const;
  /// progress_once, reporting (not throwing) MPI failures.
  bool poll_reporting_errors() noexcept;
  void test_ops();
  void add_op(MPI_Request req, Op op, bool locked = false);
  /// Posts the send of `bytes` to `host` on `link`; the engine keeps them.
  void isend_owned(const Link &link, int host, std::vector<std::byte> bytes, bool locked);
  void complete_op(Op &op, const MPI_Status &st);
  /// Cancels the pending receive that reports to `done` (mutex held).
  void cancel_receive(bool *done);

  int self_ = 0;
  int size_ = 1;
  int world_base_ = 0;
  int parent_ = -1;
  std::shared_ptr<Link> world_;
  /// Every link probed and sent on; the world link first.
  mutable std::shared_mutex links_mu_;
  std::vector<std::shared_ptr<Link>> links_;
  /// links_.size(), read without the lock by the poller's fast path.
  std::atomic<std::size_t> link_count_{1};
  std::uint32_t block_tag_space_ = 32767;
  std::chrono::milliseconds block_timeout_{10000};
  std::mutex tags_mu_;
  std::unordered_map<int, std::uint32_t> next_block_tag_;

  std::mutex mu_;
  Router router_;
  std::vector<Waiter *> waiters_;
  int process_waiters_ = 0;
  Waiter *leader_ = nullptr;

  std::vector<MPI_Request> op_requests_;
  std::vector<Op> ops_;
  std::atomic<std::size_t> op_count_{0};
};

/// Throws std::runtime_error naming `what` if an MPI call failed.
void check_mpi(int rc, const char *what);

} // namespace poc::detail
