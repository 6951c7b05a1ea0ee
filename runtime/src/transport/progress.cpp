#include "progress.hpp"

#include <poc/errors.hpp>

#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <cstdlib>

namespace poc::detail {

namespace {

/// What runs on this thread under a Progress::NoWaiting, or null.
thread_local const char *t_no_waiting = nullptr;

/// Messages the poller routes in one go once its own wait is over.
constexpr int kBatch = 32;

/// How often a free pool thread or the idle main thread checks whether
/// anybody polls: every kIdleCheck while it had to, backing off to
/// kIdleCheckMax while another thread polls (so an idle host wakes rarely).
constexpr auto kIdleCheck = std::chrono::microseconds(1000);
constexpr auto kIdleCheckMax = std::chrono::microseconds(50000);
/// How often a free pool thread looks while another thread polls and is
/// busy (not napping), if the host wants free pollers: a poller that
/// leaves to run a request then need not wake one (a thread switch, the
/// largest part of a creation on a loaded host), because one looks within
/// this time anyway.
constexpr auto kBusyCheck = std::chrono::microseconds(200);
/// How long free pool threads keep standing by after the host stopped
/// asking: a host whose second process comes and goes (a creation loop)
/// keeps them standing by instead of waking one per creation.
constexpr auto kStandByLinger = std::chrono::milliseconds(50);

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

Progress::NoWaiting::NoWaiting(const char *who) noexcept : outer_(t_no_waiting) {
  t_no_waiting = who;
}

Progress::NoWaiting::~NoWaiting() { t_no_waiting = outer_; }

bool Progress::NoWaiting::active() noexcept { return t_no_waiting != nullptr; }

HostLock::HostLock(Progress &progress) : std::unique_lock<std::mutex>(progress.mu_) {}

bool Progress::outranked(WaitRole role) const noexcept {
  switch (role) {
  case WaitRole::process:
    return false;
  case WaitRole::patient:
    return process_waiters_ > 0;
  case WaitRole::free:
    // A patient waiter polls for itself where no request could be for an
    // idle process of this host (no free pollers wanted): it then receives
    // what it waits for without a thread switch.
    return process_waiters_ > 0 ||
           (patient_waiters_ > 0 &&
            free_pollers_wanted_until_ != std::chrono::steady_clock::time_point::max());
  case WaitRole::idle:
    return process_waiters_ > 0 || free_waiters_ > 0;
  }
  return false;
}

bool Progress::may_lead(WaitRole role) const noexcept { return !leader_ && !outranked(role); }

void Progress::wait(HostLock &lk, const std::function<bool()> &pred, WaitRole role) {
  if (t_no_waiting)
    throw usage_error(fmt::format(
        "poc: {} is marked POC_NONBLOCKING but waited (for a reply, a future, a send, a "
        "connection or poc::sync()); it runs on the thread that received the call, which "
        "cannot receive anything while it runs: start the call instead, or remove the mark",
        t_no_waiting));
  Waiter self{{}, &pred, role, {}};
  waiters_.push_back(&self);
  if (role == WaitRole::process)
    ++process_waiters_;
  else if (role != WaitRole::idle)
    ++free_waiters_;
  if (role == WaitRole::patient)
    ++patient_waiters_;
  // A poller of a later role should hand over to us promptly.
  if (leader_ && outranked(leader_->role))
    leader_->cv.notify_one();
  std::chrono::microseconds idle_check = kIdleCheck;
  // lead() hands the role on as it returns; nothing changes before we leave.
  bool handed_off = false;
  while (!pred()) {
    handed_off = false;
    if (may_lead(role)) {
      lead(lk, self);
      handed_off = true;
    } else if (role != WaitRole::process) {
      const auto now = std::chrono::steady_clock::now();
      const bool stand_by = role != WaitRole::idle && now < free_pollers_wanted_until_ &&
                            ((leader_ && !leader_napping_) || process_waiters_ > 0);
      const auto check = stand_by ? kBusyCheck : idle_check;
      self.looks_at = now + check;
      self.cv.wait_for(lk, check);
      idle_check = leader_ ? std::min(idle_check * 2, kIdleCheckMax) : kIdleCheck;
    } else if (leader_ && outranked(leader_->role)) {
      // The poller gives the role up after its current round: wait for
      // that without sleeping, which would cost two thread switches.
      lk.unlock();
      sched_yield();
      lk.lock();
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
  else if (role != WaitRole::idle)
    --free_waiters_;
  if (role == WaitRole::patient)
    --patient_waiters_;
  // Leaving without polling: someone else must poll.
  if (!leader_ && !waiters_.empty() && !handed_off)
    hand_off(nullptr);
}

void Progress::lead(HostLock &lk, Waiter &self) {
  leader_ = &self;
  leader_napping_ = false;
  Backoff backoff;
  for (;;) {
    lk.unlock();
    bool got = poll_();
    lk.lock();
    if ((*self.pred)()) {
      // Route what else has already arrived before going off to serve:
      // a stream of requests then costs one hand-over per batch. A caller
      // whose reply arrived does so too: a request that came with its
      // reply, for a process of this host, might otherwise wait for a free
      // thread's next look (up to kIdleCheckMax).
      for (int more = 0; got && more < kBatch; ++more) {
        lk.unlock();
        got = poll_();
        lk.lock();
      }
      break;
    }
    if (outranked(self.role))
      break;
    if (got) {
      backoff.reset();
      leader_napping_ = false;
    } else {
      backoff.pause(lk, self.cv);
      leader_napping_ = backoff.napping();
      // Followers with deadlines (block receives) re-check while it is quiet.
      if (backoff.napping())
        notify(lk);
      watch(lk, backoff.napping());
    }
    if ((*self.pred)())
      break;
  }
  leader_ = nullptr;
  hand_off(&self);
}

void Progress::watch(HostLock &lk, bool napping) {
  // Reading the clock costs as much as a poll: look every 256 quiet rounds,
  // unless the rounds are naps.
  if (!watchdog_ || (++watch_rounds_ % 256 != 0 && !napping))
    return;
  const auto now = std::chrono::steady_clock::now();
  if (now - watched_at_ < std::chrono::milliseconds(100))
    return;
  watched_at_ = now;
  watchdog_(lk);
}

void Progress::hand_off(Waiter *self) {
  // The next poller: a `process` waiter whose predicate does not hold yet,
  // else (if the host wants one) a free pool thread or a patient waiter,
  // unless one looks within kBusyCheck by itself; else a patient waiter,
  // since nobody stands by to look for what it waits for. Waiters whose
  // predicate holds are woken too: they leave, and hand off in turn if
  // nobody polls by then. The idle main thread is not woken: it takes the
  // role by itself when it finds nobody polling, so a thread that runs one
  // request and comes back does not cost two thread switches.
  Waiter *next = nullptr;
  Waiter *free = nullptr;
  Waiter *patient = nullptr;
  auto first_free_look = std::chrono::steady_clock::time_point::max();
  for (Waiter *w : waiters_) {
    if (w == self)
      continue;
    if ((*w->pred)()) {
      w->cv.notify_one();
      continue;
    }
    if (!next && w->role == WaitRole::process)
      next = w;
    if (w->role == WaitRole::patient)
      patient = patient ? patient : w;
    if (w->role == WaitRole::free || w->role == WaitRole::patient) {
      free = free ? free : w;
      first_free_look = std::min(first_free_look, w->looks_at);
    }
  }
  // The clock only when a free thread might be woken: not on a host
  // that never wanted free pollers (one with no process of its own).
  if (!next && free) {
    const bool never_wanted = free_pollers_wanted_until_ == std::chrono::steady_clock::time_point{};
    const auto now = never_wanted ? free_pollers_wanted_until_ : std::chrono::steady_clock::now();
    if (now >= free_pollers_wanted_until_)
      next = patient;
    else if (first_free_look > now + kBusyCheck)
      next = free;
  }
  if (next)
    next->cv.notify_one();
}

void Progress::notify(HostLock &) {
  for (Waiter *w : waiters_)
    if (w != leader_ && (*w->pred)())
      w->cv.notify_one();
  // The leader may be napping in its back-off with its predicate now true.
  if (leader_ && (*leader_->pred)())
    leader_->cv.notify_one();
}

void Progress::wake_poller(HostLock &) {
  if (leader_)
    leader_->cv.notify_one();
}

void Progress::want_free_pollers(bool wanted, HostLock &) {
  using clock = std::chrono::steady_clock;
  if (wanted)
    free_pollers_wanted_until_ = clock::time_point::max();
  else if (free_pollers_wanted_until_ == clock::time_point::max())
    free_pollers_wanted_until_ = clock::now() + kStandByLinger;
}

} // namespace poc::detail
