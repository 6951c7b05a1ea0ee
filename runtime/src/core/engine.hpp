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

#include <poc/message.hpp>
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
#include <span>
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

/// MPI tags on the request communicator.
enum : int { kRequestTag = 1, kReplyTag = 2 };

class Engine {
public:
  /// Receives every message that arrives on the request communicator
  /// (called by the poller without the engine mutex held).
  using Router = std::function<void(int source, int tag, std::vector<std::byte> bytes)>;

  /// Duplicates MPI_COMM_WORLD into the request and block communicators.
  Engine();
  ~Engine();
  Engine(const Engine &) = delete;
  Engine &operator=(const Engine &) = delete;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }

  /// The host-wide mutex: guards the engine and all routed state.
  std::mutex &mutex() noexcept { return mu_; }

  void set_router(Router router) { router_ = std::move(router); }

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

  /// Sends `bytes` (which the engine keeps until the send completes).
  /// `locked`: the caller holds the mutex (e.g. the router).
  void send_owned(int dest, int tag, std::vector<std::byte> bytes, bool locked = false);

  /// Sends a message and its out-of-band blocks from caller memory and
  /// returns a counter of unfinished sends; wait with
  /// `wait_until(lk, [&]{ return *pending == 0; })` before the memory may
  /// change. `header` is patched into the first bytes of `message` by the
  /// caller before.
  struct SendBatch {
    int pending = 0;
  };
  void send_batch(int dest, int tag, std::span<const std::byte> message,
                  std::span<const Writer::Block> blocks, std::uint32_t first_block_tag,
                  std::shared_ptr<SendBatch> batch);

  /// Chooses tags for the `count` out-of-band messages of one message to
  /// `dest`; returns the first.
  std::uint32_t reserve_block_tags(int dest, unsigned count);
  /// Tag of the i-th out-of-band message after `first`.
  std::uint32_t block_tag(std::uint32_t first, unsigned i) const noexcept {
    return static_cast<std::uint32_t>((std::uint64_t{first} + i) % block_tag_space_);
  }

  /// Receives one out-of-band message of exactly `n` bytes from `source`
  /// with `tag` into `dst`, waiting through the engine. Throws decode_error
  /// if its size differs or it does not arrive within the block timeout
  /// (POC_BLOCK_TIMEOUT_MS, default 10 s: a header that announces blocks
  /// nobody sends must not stall the process forever).
  void receive_block(int source, std::uint32_t tag, void *dst, std::size_t n);

  /// The size of the out-of-band message (`source`, `tag`) once it has
  /// arrived (probing, without receiving it); std::nullopt if it does not
  /// arrive within the block timeout.
  std::optional<std::size_t> probe_block(int source, std::uint32_t tag) const noexcept;

  /// Receives and discards the out-of-band message (`source`, `tag`) if it
  /// arrives within `timeout`; false if it did not.
  bool discard_block(int source, std::uint32_t tag, std::chrono::milliseconds timeout) noexcept;

  /// The communicator requests, replies and control messages travel on.
  MPI_Comm requests() const noexcept { return requests_; }
  /// The communicator out-of-band blocks travel on.
  MPI_Comm blocks() const noexcept { return blocks_; }

  /// Waits (bounded) until every send posted has completed; cancels the rest.
  void flush(std::chrono::milliseconds timeout);

private:
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
  /// progress_once, reporting (not throwing) MPI failures.
  bool poll_reporting_errors() noexcept;
  void test_ops();
  void add_op(MPI_Request req, Op op, bool locked = false);
  void complete_op(Op &op, const MPI_Status &st);
  /// Cancels the pending receive that reports to `done` (mutex held).
  void cancel_receive(bool *done);

  int rank_ = 0;
  int size_ = 1;
  MPI_Comm requests_ = MPI_COMM_NULL;
  MPI_Comm blocks_ = MPI_COMM_NULL;
  std::uint32_t block_tag_space_ = 32767;
  std::chrono::milliseconds block_timeout_{10000};
  std::unique_ptr<std::atomic<std::uint32_t>[]> next_block_tag_;

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
