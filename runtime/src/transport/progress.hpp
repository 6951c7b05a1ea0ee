#pragma once
/// \file
/// Progress of one host (MPI rank): the host mutex, and the waiting of
/// every thread that must wait (for a reply, for mail, for a send to
/// complete, for a barrier) through `wait_until`. One of the waiting
/// threads at a time is the *poller*: it runs the poll function the engine
/// installs (receive what arrived, route it, complete outstanding MPI
/// requests); the others sleep on their own condition variable until their
/// predicate holds or the poller role is handed to them (leader/followers).
/// There is no progress thread: a request for an idle process runs on the
/// pool thread that received it (Host).

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

namespace poc::detail {

class Progress;

/// The host mutex, held: it guards the transport's and the process
/// model's shared state. A function that needs its caller to hold the
/// mutex takes a `HostLock &`, so the compiler checks that the caller has
/// one; nothing else can lock the mutex. It may be unlocked and locked
/// again in between, like the std::unique_lock it is.
class HostLock : public std::unique_lock<std::mutex> {
public:
  /// Locks the host mutex of `progress`.
  explicit HostLock(Progress &progress);
};

/// The host mutex for a function that needs it on some paths only (a send
/// through a shared ring needs it only to wake a napping poller): either
/// its caller's HostLock, or taken on the first get() and released when
/// this goes out of scope. So the fast path takes no lock, and no function
/// has to be told by a null pointer whether its caller holds one.
class LazyHostLock {
public:
  /// The caller holds the mutex as `held`.
  explicit LazyHostLock(HostLock &held) noexcept : held_(&held) {}
  /// The caller does not hold it: get() takes it.
  explicit LazyHostLock(Progress &progress) noexcept : progress_(&progress) {}
  LazyHostLock(const LazyHostLock &) = delete;
  LazyHostLock &operator=(const LazyHostLock &) = delete;

  /// The host mutex, held.
  HostLock &get() {
    if (!held_)
      held_ = &own_.emplace(*progress_);
    return *held_;
  }

private:
  HostLock *held_ = nullptr;
  Progress *progress_ = nullptr;
  std::optional<HostLock> own_;
};

/// How eagerly a waiting thread takes the poller role. A waiter takes it
/// only while no waiter of an earlier role waits, and a poller of a later
/// role gives it up when one arrives.
enum class WaitRole {
  /// A thread that waits in the middle of work (the caller of a remote
  /// method, a method waiting for a send): it receives what it waits for
  /// itself, without a thread switch.
  process,
  /// A thread that waits for the end of work that takes long (poc::sync()
  /// waiting for its started calls): it polls only while no `process`
  /// waiter does, so a thread that waits for its next piece of work (a
  /// dataflow worker) receives it itself, without a thread switch. Like a
  /// `free` one it looks now and then while another thread polls, and the
  /// poller that leaves wakes it when nobody else would look soon. Where
  /// no free pollers are wanted (want_free_pollers) it goes before `free`
  /// ones, so it receives its acknowledgements itself.
  patient,
  /// A pool thread waiting for a process to serve: the request that makes
  /// a process runnable then runs on the thread that received it.
  free,
  /// A host's otherwise idle main thread.
  idle,
};

class Progress {
public:
  /// While one exists, the calling thread must not wait: wait_until throws
  /// usage_error instead (a method running in place on the thread that
  /// polls, Host::run_in_place, would otherwise wait for messages that only
  /// it can receive). `who` names what runs, for the error.
  class NoWaiting {
  public:
    explicit NoWaiting(const char *who) noexcept;
    ~NoWaiting();
    /// True on a thread under a NoWaiting: it holds the poller role while
    /// it runs a request in place, so nobody else would make progress for
    /// it (Blocks::receive then completes its receive by testing it itself).
    static bool active() noexcept;
    NoWaiting(const NoWaiting &) = delete;
    NoWaiting &operator=(const NoWaiting &) = delete;

  private:
    const char *outer_;
  };

  /// One round of polling, called by the poller without the mutex held;
  /// true if it received anything. It reports its own failures: it must
  /// not throw.
  using Poll = std::function<bool()>;

  Progress() = default;
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  /// Installs the poll function (before any thread waits).
  void set_poll(Poll poll) { poll_ = std::move(poll); }

  /// `check` runs every 100 ms or so, with the mutex held, on the thread
  /// that polls (SpawnedHosts::check_alive).
  void set_watchdog(std::function<void(HostLock &)> check) { watchdog_ = std::move(check); }

  /// Returns (with `lk` held) once `pred()` holds; `pred` is evaluated with
  /// the mutex held, by this thread or by the poller. Throws usage_error if
  /// it would have to wait under a NoWaiting.
  template <class Pred>
  void wait_until(HostLock &lk, Pred &&pred, WaitRole role = WaitRole::process) {
    if (pred())
      return;
    std::function<bool()> fn = std::ref(pred);
    wait(lk, fn, role);
  }

  /// Wakes the waiters whose predicate now holds. Call after changing
  /// state that predicates read.
  void notify(HostLock &lk);

  /// Wakes the poller if it naps (e.g. it has a new MPI request to test).
  void wake_poller(HostLock &lk);

  /// Whether free pool threads stand by while the poller is busy: they
  /// then look every 0.2 ms, and a poller that leaves to run a request
  /// wakes one to take over (when no `process` waiter can) unless one
  /// looks within that time anyway. The host asks for it while it has
  /// another process a request could be for (it lasts 50 ms after the host
  /// stops asking); otherwise a free thread takes over when it next looks
  /// (at most 50 ms), which spares the wake-ups on a host with one process.
  void want_free_pollers(bool wanted, HostLock &lk);

private:
  friend class HostLock;
  struct Waiter {
    std::condition_variable cv;
    const std::function<bool()> *pred;
    WaitRole role;
    /// When a waiter that is not the poller looks again by itself (free
    /// and idle roles).
    std::chrono::steady_clock::time_point looks_at{};
  };

  void wait(HostLock &lk, const std::function<bool()> &pred, WaitRole role);
  void lead(HostLock &lk, Waiter &self);
  void hand_off(Waiter *self);
  /// True if `role` may take the poller role now that nobody has it.
  bool may_lead(WaitRole role) const noexcept;
  /// True if a waiter of an earlier role than `role` waits.
  bool outranked(WaitRole role) const noexcept;
  /// Runs the watchdog if it is due: at most every 100 ms, looking at the
  /// clock every 256 quiet rounds while spinning or yielding, and every
  /// round while `napping` (then a round is a nap of up to 10 ms).
  void watch(HostLock &lk, bool napping);

  std::mutex mu_;
  Poll poll_;
  std::function<void(HostLock &)> watchdog_;
  std::chrono::steady_clock::time_point watched_at_ = std::chrono::steady_clock::now();
  unsigned watch_rounds_ = 0;
  std::vector<Waiter *> waiters_;
  int process_waiters_ = 0;
  /// Waiters of the `patient` and `free` roles.
  int free_waiters_ = 0;
  /// Waiters of the `patient` role.
  int patient_waiters_ = 0;
  /// Until when free pool threads stand by (want_free_pollers).
  std::chrono::steady_clock::time_point free_pollers_wanted_until_{};
  Waiter *leader_ = nullptr;
  /// The poller has been idle long enough to nap.
  bool leader_napping_ = false;
};

} // namespace poc::detail
