#include "engine.hpp"

#include "host_numbers.hpp"

#include <fmt/format.h>
#include <poc/errors.hpp>

#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
/// message, then yield the core, then sleep in naps that grow with the time
/// idle, up to max_nap(). Spinning keeps a busy ping-pong at MPI latency;
/// sleeping keeps idle hosts from taking the cores away from busy ones.
/// MPI offers no wait that blocks in the kernel until any message arrives
/// (Open MPI's blocking calls spin too), so a nap is the only way to give
/// the core back; it costs a late first message at most 1/16 of the time the
/// host had been idle, bounded by max_nap().
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
    auto nap = std::min<clock::duration>(max_nap(), (idle - kYield) / 16 + kFirstNap);
    cv.wait_for(lk, nap);
  }

  /// The longest nap: POC_MAX_NAP_US, default 10 ms. An idle host then
  /// wakes about 100 times a second (measured: under 0.1 % of a core).
  static clock::duration max_nap() {
    static const clock::duration nap = [] {
      const char *v = std::getenv("POC_MAX_NAP_US");
      long us = v ? std::atol(v) : 0;
      return us > 0 ? clock::duration(std::chrono::microseconds(us)) : kDefaultMaxNap;
    }();
    return nap;
  }

private:
  static constexpr auto kSpin = std::chrono::microseconds(2);
  static constexpr auto kYield = std::chrono::microseconds(500);
  static constexpr auto kFirstNap = std::chrono::microseconds(20);
  static constexpr clock::duration kDefaultMaxNap = std::chrono::milliseconds(10);
  clock::time_point idle_since_ = clock::now();
  unsigned rounds_ = 0;
  bool stamped_ = false;
  bool napping_ = false;
};

} // namespace

Engine::Engine(int world_base, int parent) : world_base_(world_base), parent_(parent) {
  int rank = 0;
  check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
  self_ = world_base + rank;
  world_ = std::make_shared<Link>();
  world_->base = world_base;
  world_->count = size_;
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &world_->requests), "MPI_Comm_dup");
  check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &world_->blocks), "MPI_Comm_dup");
  // Errors are reported as exceptions (a truncated block is bad input, not
  // a reason to abort the job).
  MPI_Comm_set_errhandler(world_->requests, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(world_->blocks, MPI_ERRORS_RETURN);
  links_.push_back(world_);
  int *tag_ub = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
  if (flag && tag_ub && *tag_ub > 0)
    block_tag_space_ = static_cast<std::uint32_t>(std::min(*tag_ub, 1 << 30)) + 1;
  if (const char *t = std::getenv("POC_BLOCK_TIMEOUT_MS"); t && std::atoi(t) > 0)
    block_timeout_ = std::chrono::milliseconds(std::atoi(t));
}

Engine::~Engine() {
  MPI_Comm_free(&world_->requests);
  MPI_Comm_free(&world_->blocks);
}

void Engine::add_link(std::shared_ptr<Link> link) {
  MPI_Comm_set_errhandler(link->requests, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(link->blocks, MPI_ERRORS_RETURN);
  std::unique_lock g(links_mu_);
  links_.push_back(std::move(link));
  link_count_.store(links_.size(), std::memory_order_relaxed);
}

void Engine::remove_link(const Link *link) {
  std::unique_lock g(links_mu_);
  std::erase_if(links_, [&](const auto &l) { return l.get() == link; });
  link_count_.store(links_.size(), std::memory_order_relaxed);
}

std::shared_ptr<Link> Engine::link_to(int host) const {
  if (world_->covers(host))
    return world_;
  std::shared_lock g(links_mu_);
  for (const auto &l : links_)
    if (l->covers(host) && !l->closing.load(std::memory_order_relaxed))
      return l;
  return nullptr;
}

bool Engine::permanently_linked(int host) const {
  if (world_->covers(host) || host == parent_)
    return true;
  std::shared_lock g(links_mu_);
  for (const auto &l : links_)
    if (l->permanent() && l->covers(host))
      return true;
  return false;
}

std::vector<std::shared_ptr<Link>> Engine::links_of(Link::Kind kind) const {
  std::shared_lock g(links_mu_);
  std::vector<std::shared_ptr<Link>> out;
  for (const auto &l : links_)
    if (l->kind == kind)
      out.push_back(l);
  return out;
}

std::shared_ptr<Link> Engine::route_to(int dest, int &hop) const {
  hop = dest;
  if (auto l = link_to(dest))
    return l;
  // Relay along permanent links: a spawned host sends to its parent; a job
  // rank sends to the rank that spawned the destination.
  hop = parent_ >= 0 ? parent_ : is_spawned_host(dest) ? spawner_of(dest) : -1;
  if (hop < 0 || hop == self_)
    return nullptr;
  return link_to(hop);
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
      watch_locked();
    }
    if ((*self.pred)())
      break;
  }
  leader_ = nullptr;
  hand_off(&self);
}

void Engine::watch_locked() {
  // Reading the clock costs as much as a probe: look every 256 quiet rounds.
  if (!watchdog_ || ++watch_rounds_ % 256 != 0)
    return;
  const auto now = std::chrono::steady_clock::now();
  if (now - watched_at_ < std::chrono::milliseconds(100))
    return;
  watched_at_ = now;
  watchdog_();
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
    fmt::print(stderr, "poc: host {}: {}\n", self_, e.what());
    return true;
  }
}

std::optional<std::vector<std::byte>> Engine::receive_from(const Link &link, int &source,
                                                           int &tag) {
  int flag = 0;
  MPI_Message msg;
  MPI_Status st;
  check_mpi(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, link.requests, &flag, &msg, &st),
            "MPI_Improbe");
  if (!flag)
    return std::nullopt;
  int count = 0;
  MPI_Get_count(&st, MPI_BYTE, &count);
  std::vector<std::byte> bytes(static_cast<std::size_t>(std::max(count, 0)));
  check_mpi(MPI_Mrecv(bytes.data(), count, MPI_BYTE, &msg, &st), "MPI_Mrecv");
  source = link.base + st.MPI_SOURCE;
  tag = st.MPI_TAG;
  return bytes;
}

bool Engine::progress_once() {
  struct Arrived {
    int source;
    int tag;
    std::vector<std::byte> bytes;
    std::shared_ptr<Link> link;
  };
  bool got = false;
  int source = 0, tag = 0;
  if (link_count_.load(std::memory_order_relaxed) == 1) {
    // A job without spawned hosts has only its world link: no lock, no list.
    if (auto bytes = receive_from(*world_, source, tag)) {
      got = true;
      deliver(source, tag, std::move(*bytes), world_);
    }
  } else {
    // At most one message per link per round, so no link starves the
    // others; delivered after the lock is released (the router may add or
    // remove links).
    thread_local std::vector<Arrived> arrived;
    arrived.clear();
    {
      std::shared_lock g(links_mu_);
      for (const auto &l : links_)
        if (auto bytes = receive_from(*l, source, tag))
          arrived.push_back({source, tag, std::move(*bytes), l});
    }
    got = !arrived.empty();
    for (auto &a : arrived)
      deliver(a.source, a.tag, std::move(a.bytes), a.link);
    arrived.clear();
  }
  if (op_count_.load(std::memory_order_relaxed) != 0)
    test_ops();
  return got;
}

std::unique_ptr<Message> Engine::parse(int source, std::vector<std::byte> bytes,
                                       const std::shared_ptr<Link> &link, std::optional<int> tag) {
  try {
    auto m = std::make_unique<Message>(source, std::move(bytes), this, link);
    if (tag && *tag != tag_of(m->kind()))
      throw protocol_error("poc: message kind " + std::to_string(static_cast<int>(m->kind())) +
                           " on the wrong tag");
    if (!link && m->kind() == Kind::relay)
      throw protocol_error("poc: a relayed message that is itself a relay");
    return m;
  } catch (const std::exception &e) {
    fmt::print(stderr, "poc: host {}: dropped a malformed message from host {}: {}\n", self_,
               source, e.what());
    return nullptr;
  }
}

void Engine::deliver(int source, int tag, std::vector<std::byte> bytes,
                     const std::shared_ptr<Link> &link) {
  std::unique_ptr<Message> m = parse(source, std::move(bytes), link, tag);
  if (m && m->kind() == Kind::relay) {
    const RelayHead relay = m->head<RelayHead>();
    auto body = m->body();
    if (relay.dest != self_) {
      int hop = 0;
      if (std::shared_ptr<Link> next = route_to(relay.dest, hop))
        isend_owned(*next, hop, frame(Kind::relay, relay, body), false);
      else
        fmt::print(stderr, "poc: host {}: no route to host {} for a relayed message\n", self_,
                   relay.dest);
      return;
    }
    // The relayed message itself: it never has out-of-band blocks, and
    // travelled on the request tag whatever its kind.
    m = parse(relay.origin, std::vector<std::byte>(body.begin(), body.end()), nullptr,
              std::nullopt);
  }
  if (m)
    router_(std::move(m), link);
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

void Engine::send_owned(int dest, std::vector<std::byte> bytes, bool locked, const Link *via) {
  std::shared_ptr<Link> owner;
  int to = dest;
  const Link *link = via;
  if (!link) {
    owner = route_to(dest, to);
    link = owner.get();
  }
  if (!link)
    throw std::runtime_error("poc: host " + std::to_string(self_) + " has no route to host " +
                             std::to_string(dest));
  // A relayed message is wrapped in one that names its destination and origin.
  if (to != dest)
    bytes = frame(Kind::relay, RelayHead{dest, self_}, bytes);
  isend_owned(*link, to, std::move(bytes), locked);
}

void Engine::isend_owned(const Link &link, int host, std::vector<std::byte> bytes, bool locked) {
  Envelope e;
  std::memcpy(&e, bytes.data(), sizeof e);
  MPI_Request req;
  check_mpi(MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, host - link.base,
                      tag_of(e.kind), link.requests, &req),
            "MPI_Isend");
  Op op;
  op.owned = std::move(bytes);
  add_op(req, std::move(op), locked);
}

void Engine::send_batch(int dest, std::span<const std::byte> message,
                        std::span<const Writer::Block> blocks, std::shared_ptr<SendBatch> batch) {
  Envelope e;
  std::memcpy(&e, message.data(), sizeof e);
  std::shared_ptr<Link> link = link_to(dest);
  if (!link)
    throw std::logic_error("poc: host " + std::to_string(self_) + " sends to host " +
                           std::to_string(dest) + " without a connection");
  const int to = dest - link->base;
  std::vector<std::pair<const std::byte *, std::size_t>> parts;
  for (const auto &b : blocks) {
    auto *p = static_cast<const std::byte *>(b.data);
    for (std::size_t c = 0, off = 0; c < chunks_of(b.size); ++c, off += kChunk)
      parts.emplace_back(p + off, std::min(kChunk, b.size - off));
  }
  {
    std::lock_guard<std::mutex> g(mu_);
    batch->pending += static_cast<int>(1 + parts.size());
  }
  MPI_Request req;
  check_mpi(MPI_Isend(message.data(), static_cast<int>(message.size()), MPI_BYTE, to,
                      tag_of(e.kind), link->requests, &req),
            "MPI_Isend");
  add_op(req, Op{{}, batch, nullptr, nullptr});
  for (std::size_t i = 0; i < parts.size(); ++i) {
    check_mpi(MPI_Isend(parts[i].first, static_cast<int>(parts[i].second), MPI_BYTE, to,
                        static_cast<int>(block_tag(e.oob_tag, static_cast<unsigned>(i))),
                        link->blocks, &req),
              "MPI_Isend");
    add_op(req, Op{{}, batch, nullptr, nullptr});
  }
}

std::shared_ptr<Engine::SendBatch> Engine::send_sealed(int dest, Writer &w, Sending how) {
  const auto &blocks = w.out_of_band();
  // Without blocks there is nothing to copy: the engine takes the bytes.
  if (blocks.empty() && how != Sending::keep) {
    send_owned(dest, w.take());
    return nullptr;
  }
  auto batch = std::make_shared<SendBatch>();
  if (how != Sending::copy) {
    send_batch(dest, w.bytes(), blocks, batch);
    return batch;
  }
  std::vector<Writer::Block> copies;
  for (const auto &b : blocks) {
    const auto *data = static_cast<const std::byte *>(b.data);
    batch->owned.emplace_back(data, data + b.size);
    copies.push_back({batch->owned.back().data(), b.size});
  }
  batch->owned.push_back(w.take());
  send_batch(dest, batch->owned.back(), copies, batch);
  return nullptr;
}

void Engine::announce_blocks(int dest, std::span<const Writer::Block> blocks, Envelope &e) {
  std::size_t chunks = 0;
  for (const auto &b : blocks)
    chunks += chunks_of(b.size);
  if (chunks > 0xffff)
    throw usage_error("poc: message with more than 65535 out-of-band chunks");
  e.oob_count = static_cast<std::uint16_t>(chunks);
  if (chunks == 0)
    return;
  std::lock_guard<std::mutex> g(tags_mu_);
  std::uint32_t &next = next_block_tag_[dest];
  e.oob_tag = next % block_tag_space_;
  next += static_cast<std::uint32_t>(chunks);
}

void Engine::receive_block(const Link &link, int source, std::uint32_t tag, void *dst,
                           std::size_t n) {
  MPI_Request req;
  check_mpi(MPI_Irecv(dst, static_cast<int>(n), MPI_BYTE, source - link.base, static_cast<int>(tag),
                      link.blocks, &req),
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
      throw decode_error("poc: an out-of-band block announced by rank " + std::to_string(source) +
                         " did not arrive within " + std::to_string(block_timeout_.count()) +
                         " ms");
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

std::optional<std::size_t> Engine::probe_block(const Link &link, int source,
                                               std::uint32_t tag) const noexcept {
  auto until = std::chrono::steady_clock::now() + block_timeout_;
  for (;;) {
    int flag = 0;
    MPI_Status st;
    if (MPI_Iprobe(source - link.base, static_cast<int>(tag), link.blocks, &flag, &st) !=
        MPI_SUCCESS)
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

bool Engine::discard_block(const Link &link, int source, std::uint32_t tag,
                           std::chrono::milliseconds timeout) noexcept {
  auto until = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int flag = 0;
    MPI_Message msg;
    MPI_Status st;
    if (MPI_Improbe(source - link.base, static_cast<int>(tag), link.blocks, &flag, &msg, &st) !=
        MPI_SUCCESS)
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
