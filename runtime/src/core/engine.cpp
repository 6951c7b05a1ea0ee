#include "engine.hpp"

#include <poc/errors.hpp>

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>

namespace poc::detail {

void check_mpi(int rc, const char *what) {
  if (rc == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw std::runtime_error(std::string("poc: ") + what + " failed: " + std::string(text, len));
}

namespace {

/// Messages the poller routes in one go once its own wait is over.
constexpr int kBatch = 32;

/// How often the idle main thread of a rank checks whether anybody polls:
/// every kIdleCheck while it had to, backing off to kIdleCheckMax while a
/// process thread polls (so an idle host wakes rarely).
constexpr auto kIdleCheck = std::chrono::milliseconds(1);
constexpr auto kIdleCheckMax = std::chrono::milliseconds(50);

/// Idle back-off of the poller: spin (probing) for a while after the last
/// message, then yield the core, then sleep for growing intervals up to
/// 1 ms. Spinning keeps a busy ping-pong at MPI latency; sleeping keeps idle
/// hosts from taking the cores away from busy ones.
class Backoff {
public:
  using clock = std::chrono::steady_clock;
  void reset() noexcept {
    stamped_ = false;
    napping_ = false;
  }
  /// True once the poller has been idle long enough to sleep.
  bool napping() const noexcept { return napping_; }
  /// Pauses once; `cv` is the poller's own condition variable, so a thread
  /// that needs the poller (or its predicate change) can wake it.
  void pause(std::unique_lock<std::mutex> &lk, std::condition_variable &cv) {
    // Reading the clock costs as much as a probe: spin 32 rounds per read.
    if (!stamped_) {
      idle_since_ = clock::now();
      stamped_ = true;
      return;
    }
    if (++rounds_ % 32 != 0 && !napping_)
      return;
    auto idle = clock::now() - idle_since_;
    napping_ = idle >= kYield;
    if (idle < kSpin)
      return;
    if (idle < kYield) {
      lk.unlock();
      sched_yield();
      lk.lock();
      return;
    }
    auto nap = std::min<clock::duration>(kMaxNap, (idle - kYield) / 4 + std::chrono::microseconds(20));
    cv.wait_for(lk, nap);
  }

private:
  static constexpr auto kSpin = std::chrono::microseconds(50);
  static constexpr auto kYield = std::chrono::microseconds(500);
  static constexpr auto kMaxNap = std::chrono::milliseconds(1);
  clock::time_point idle_since_ = clock::now();
  unsigned rounds_ = 0;
  bool stamped_ = false;
  bool napping_ = false;
};

} // namespace

Engine::Engine() {
  check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &requests_), "MPI_Comm_dup");
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &blocks_), "MPI_Comm_dup");
  // Errors are reported as exceptions (a truncated block is bad input, not
  // a reason to abort the job).
  MPI_Comm_set_errhandler(requests_, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(blocks_, MPI_ERRORS_RETURN);
  int *tag_ub = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
  if (flag && tag_ub && *tag_ub > 0)
    block_tag_space_ = static_cast<std::uint32_t>(std::min(*tag_ub, 1 << 30)) + 1;
  if (const char *t = std::getenv("POC_BLOCK_TIMEOUT_MS"); t && std::atoi(t) > 0)
    block_timeout_ = std::chrono::milliseconds(std::atoi(t));
  next_block_tag_ = std::make_unique<std::atomic<std::uint32_t>[]>(static_cast<std::size_t>(size_));
}

Engine::~Engine() {
  if (requests_ != MPI_COMM_NULL)
    MPI_Comm_free(&requests_);
  if (blocks_ != MPI_COMM_NULL)
    MPI_Comm_free(&blocks_);
}

void Engine::wait_impl(std::unique_lock<std::mutex> &lk, const std::function<bool()> &pred,
                       WaitRole role) {
  Waiter self{{}, &pred, role};
  waiters_.push_back(&self);
  if (role == WaitRole::process) {
    ++process_waiters_;
    // An idle-role poller should hand over to us promptly.
    if (leader_ && leader_->role == WaitRole::idle)
      leader_->cv.notify_one();
  }
  std::chrono::milliseconds idle_check = kIdleCheck;
  while (!pred()) {
    bool may_lead = !leader_ && (role == WaitRole::process || process_waiters_ == 0);
    if (may_lead) {
      lead(lk, self);
    } else if (role == WaitRole::idle) {
      self.cv.wait_for(lk, idle_check);
      idle_check = leader_ ? std::min(idle_check * 2, kIdleCheckMax) : kIdleCheck;
    } else {
      // Nobody polls and we may not: make sure a thread that may is awake.
      if (!leader_)
        hand_off(&self);
      self.cv.wait(lk);
    }
  }
  waiters_.erase(std::find(waiters_.begin(), waiters_.end(), &self));
  if (role == WaitRole::process)
    --process_waiters_;
  // Leaving without polling: someone else must poll.
  if (!leader_ && !waiters_.empty())
    hand_off(nullptr);
}

void Engine::lead(std::unique_lock<std::mutex> &lk, Waiter &self) {
  leader_ = &self;
  Backoff backoff;
  for (;;) {
    lk.unlock();
    bool got = poll_reporting_errors();
    lk.lock();
    if ((*self.pred)()) {
      // Route what else has already arrived before going off to serve:
      // a stream of requests then costs one hand-over per batch.
      for (int more = 0; got && more < kBatch; ++more) {
        lk.unlock();
        got = poll_reporting_errors();
        lk.lock();
      }
      break;
    }
    if (self.role == WaitRole::idle && process_waiters_ > 0)
      break;
    if (got) {
      backoff.reset();
    } else {
      backoff.pause(lk, self.cv);
      // Followers with deadlines (block receives) re-check while it is quiet.
      if (backoff.napping())
        notify_locked();
    }
    if ((*self.pred)())
      break;
  }
  leader_ = nullptr;
  hand_off(&self);
}

void Engine::hand_off(Waiter *self) {
  // The next poller: a process thread whose predicate does not hold yet.
  // Waiters whose predicate holds are woken too: they leave, and hand off
  // in turn if nobody polls by then. The idle main thread is not woken: it
  // takes the role by itself when it finds nobody polling, so a
  // process thread that runs one request and comes back does not cost two
  // thread switches.
  Waiter *next = nullptr;
  for (Waiter *w : waiters_) {
    if (w == self)
      continue;
    if ((*w->pred)()) {
      w->cv.notify_one();
      continue;
    }
    if (!next && w->role == WaitRole::process)
      next = w;
  }
  if (next)
    next->cv.notify_one();
}

void Engine::notify_locked() {
  for (Waiter *w : waiters_)
    if (w != leader_ && (*w->pred)())
      w->cv.notify_one();
  // The leader may be napping in its back-off with its predicate now true.
  if (leader_ && (*leader_->pred)())
    leader_->cv.notify_one();
}

bool Engine::poll_reporting_errors() noexcept {
  try {
    return progress_once();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "poc: rank %d: %s\n", rank_, e.what());
    return true;
  }
}

bool Engine::progress_once() {
  int flag = 0;
  MPI_Message msg;
  MPI_Status st;
  check_mpi(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, requests_, &flag, &msg, &st), "MPI_Improbe");
  if (flag) {
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    std::vector<std::byte> bytes(static_cast<std::size_t>(std::max(count, 0)));
    check_mpi(MPI_Mrecv(bytes.data(), count, MPI_BYTE, &msg, &st), "MPI_Mrecv");
    router_(st.MPI_SOURCE, st.MPI_TAG, std::move(bytes));
  }
  if (op_count_.load(std::memory_order_relaxed) != 0)
    test_ops();
  return flag != 0;
}

void Engine::test_ops() {
  std::lock_guard<std::mutex> g(mu_);
  if (ops_.empty())
    return;
  int n = static_cast<int>(op_requests_.size());
  std::vector<int> idx(static_cast<std::size_t>(n));
  std::vector<MPI_Status> sts(static_cast<std::size_t>(n));
  int outcount = 0;
  for (auto &st : sts)
    st.MPI_ERROR = MPI_SUCCESS;
  MPI_Testsome(n, op_requests_.data(), &outcount, idx.data(), sts.data());
  if (outcount <= 0 || outcount == MPI_UNDEFINED)
    return;
  for (int k = 0; k < outcount; ++k)
    complete_op(ops_[static_cast<std::size_t>(idx[k])], sts[static_cast<std::size_t>(k)]);
  // Compact: completed requests are MPI_REQUEST_NULL now.
  std::size_t out = 0;
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    if (op_requests_[i] == MPI_REQUEST_NULL)
      continue;
    if (out != i) {
      op_requests_[out] = op_requests_[i];
      ops_[out] = std::move(ops_[i]);
    }
    ++out;
  }
  op_requests_.resize(out);
  ops_.resize(out);
  op_count_.store(out, std::memory_order_relaxed);
  notify_locked();
}

void Engine::complete_op(Op &op, const MPI_Status &st) {
  if (op.batch)
    --op.batch->pending;
  if (op.status)
    *op.status = st;
  if (op.done)
    *op.done = true;
  op.owned = {};
  op.batch.reset();
}

void Engine::cancel_receive(bool *done) {
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    if (ops_[i].done != done)
      continue;
    MPI_Cancel(&op_requests_[i]);
    MPI_Request_free(&op_requests_[i]);
    op_requests_.erase(op_requests_.begin() + static_cast<std::ptrdiff_t>(i));
    ops_.erase(ops_.begin() + static_cast<std::ptrdiff_t>(i));
    op_count_.store(ops_.size(), std::memory_order_relaxed);
    return;
  }
}

void Engine::add_op(MPI_Request req, Op op, bool locked) {
  int flag = 0;
  MPI_Status st;
  st.MPI_ERROR = MPI_SUCCESS;
  int rc = MPI_Test(&req, &flag, &st);
  if (rc != MPI_SUCCESS) {
    // The request completed with an error (e.g. a truncated receive).
    flag = 1;
    st.MPI_ERROR = rc;
  }
  if (flag && !op.batch && !op.done)
    return; // nobody waits for it: no bookkeeping
  std::unique_lock<std::mutex> g(mu_, std::defer_lock);
  if (!locked)
    g.lock();
  if (flag) {
    complete_op(op, st);
    notify_locked();
    return;
  }
  op_requests_.push_back(req);
  ops_.push_back(std::move(op));
  op_count_.store(ops_.size(), std::memory_order_relaxed);
  // A napping poller must start testing the new request.
  if (leader_)
    leader_->cv.notify_one();
}

void Engine::send_owned(int dest, int tag, std::vector<std::byte> bytes, bool locked) {
  MPI_Request req;
  check_mpi(MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, dest, tag,
                      requests_, &req),
            "MPI_Isend");
  Op op;
  op.owned = std::move(bytes);
  add_op(req, std::move(op), locked);
}

void Engine::send_batch(int dest, int tag, std::span<const std::byte> message,
                        std::span<const Writer::Block> blocks, std::uint32_t first_block_tag,
                        std::shared_ptr<SendBatch> batch) {
  std::vector<std::pair<const std::byte *, std::size_t>> parts;
  for (const auto &b : blocks) {
    auto *p = static_cast<const std::byte *>(b.data);
    for (std::size_t off = 0; off < b.size || (b.size == 0 && off == 0); off += kChunk) {
      parts.emplace_back(p + off, std::min(kChunk, b.size - off));
      if (b.size == 0)
        break;
    }
  }
  {
    std::lock_guard<std::mutex> g(mu_);
    batch->pending += static_cast<int>(1 + parts.size());
  }
  MPI_Request req;
  check_mpi(MPI_Isend(message.data(), static_cast<int>(message.size()), MPI_BYTE, dest, tag,
                      requests_, &req),
            "MPI_Isend");
  add_op(req, Op{{}, batch, nullptr, nullptr});
  for (std::size_t i = 0; i < parts.size(); ++i) {
    check_mpi(MPI_Isend(parts[i].first, static_cast<int>(parts[i].second), MPI_BYTE, dest,
                        static_cast<int>(block_tag(first_block_tag, static_cast<unsigned>(i))),
                        blocks_, &req),
              "MPI_Isend");
    add_op(req, Op{{}, batch, nullptr, nullptr});
  }
}

std::uint32_t Engine::reserve_block_tags(int dest, unsigned count) {
  std::uint32_t first =
      next_block_tag_[static_cast<std::size_t>(dest)].fetch_add(count, std::memory_order_relaxed);
  return first % block_tag_space_;
}

void Engine::receive_block(int source, std::uint32_t tag, void *dst, std::size_t n) {
  MPI_Request req;
  check_mpi(MPI_Irecv(dst, static_cast<int>(n), MPI_BYTE, source, static_cast<int>(tag), blocks_,
                      &req),
            "MPI_Irecv");
  bool done = false;
  MPI_Status st;
  add_op(req, Op{{}, nullptr, &done, &st});
  {
    auto deadline = std::chrono::steady_clock::now() + block_timeout_;
    std::unique_lock<std::mutex> lk(mu_);
    wait_until(lk, [&] { return done || std::chrono::steady_clock::now() > deadline; });
    if (!done) {
      cancel_receive(&done);
      throw decode_error("poc: an out-of-band block announced by rank " +
                         std::to_string(source) + " did not arrive within " +
                         std::to_string(block_timeout_.count()) + " ms");
    }
  }
  int count = 0;
  if (st.MPI_ERROR != MPI_SUCCESS)
    throw decode_error("poc: out-of-band block larger than announced (" + std::to_string(n) +
                       " bytes expected)");
  MPI_Get_count(&st, MPI_BYTE, &count);
  if (static_cast<std::size_t>(count) != n)
    throw decode_error("poc: out-of-band block of " + std::to_string(count) + " bytes, " +
                       std::to_string(n) + " expected");
}

std::optional<std::size_t> Engine::probe_block(int source, std::uint32_t tag) const noexcept {
  auto until = std::chrono::steady_clock::now() + block_timeout_;
  for (;;) {
    int flag = 0;
    MPI_Status st;
    if (MPI_Iprobe(source, static_cast<int>(tag), blocks_, &flag, &st) != MPI_SUCCESS)
      return std::nullopt;
    if (flag) {
      int count = 0;
      MPI_Get_count(&st, MPI_BYTE, &count);
      return static_cast<std::size_t>(std::max(count, 0));
    }
    if (std::chrono::steady_clock::now() > until)
      return std::nullopt;
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

bool Engine::discard_block(int source, std::uint32_t tag,
                           std::chrono::milliseconds timeout) noexcept {
  auto until = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int flag = 0;
    MPI_Message msg;
    MPI_Status st;
    if (MPI_Improbe(source, static_cast<int>(tag), blocks_, &flag, &msg, &st) != MPI_SUCCESS)
      return false;
    if (flag) {
      int count = 0;
      MPI_Get_count(&st, MPI_BYTE, &count);
      std::vector<std::byte> scratch(static_cast<std::size_t>(std::max(count, 0)));
      MPI_Mrecv(scratch.data(), count, MPI_BYTE, &msg, &st);
      return true;
    }
    if (std::chrono::steady_clock::now() > until)
      return false;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

void Engine::flush(std::chrono::milliseconds timeout) {
  auto until = std::chrono::steady_clock::now() + timeout;
  while (op_count_.load() != 0 && std::chrono::steady_clock::now() < until) {
    progress_once();
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  std::lock_guard<std::mutex> g(mu_);
  for (auto &r : op_requests_) {
    MPI_Cancel(&r);
    MPI_Request_free(&r);
  }
  op_requests_.clear();
  ops_.clear();
  op_count_.store(0);
}

} // namespace poc::detail
