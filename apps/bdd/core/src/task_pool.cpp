#include "bdd/task_pool.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace bdd {

namespace {

/// Slot states; Stolen carries the thief's worker number + 1 above bit 8.
constexpr std::uint32_t kEmpty = 0;
constexpr std::uint32_t kReady = 1;
constexpr std::uint32_t kDone = 2;
constexpr std::uint32_t kStolen = 3;
constexpr unsigned kThiefShift = 8;
/// Slots a thief looks at from the victim's oldest before it gives up.
constexpr std::uint32_t kSlotsProbed = 4;

/// Failed steals a thread spins through before it yields its core: on a
/// machine with more threads than cores, a spinning thief takes the core a
/// working thread needs.
constexpr unsigned kSpinsBeforeYield = 64;

void pause() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

std::uint64_t next_random(std::uint64_t &state) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

} // namespace

TaskPool::TaskPool(unsigned threads, Runner runner)
    : runner_(std::move(runner)), workers_(threads) {
  if (threads == 0)
    throw std::invalid_argument("a task pool needs at least one thread");
  for (unsigned w = 0; w < threads; ++w) {
    workers_[w].slots = std::make_unique<Slot[]>(kSlots);
    workers_[w].random = 0x9e3779b97f4a7c15ull * (w + 1);
  }
  for (unsigned w = 1; w < threads; ++w)
    helpers_.emplace_back([this, w] { help(w); });
}

TaskPool::~TaskPool() {
  stopping_.store(true, std::memory_order_release);
  epoch_.fetch_add(1, std::memory_order_release);
  epoch_.notify_all();
  for (std::thread &t : helpers_)
    t.join();
}

void TaskPool::run(const std::function<void()> &compute) {
  busy_.store(static_cast<unsigned>(helpers_.size()), std::memory_order_relaxed);
  active_.store(true, std::memory_order_release);
  epoch_.fetch_add(1, std::memory_order_release);
  epoch_.notify_all();
  std::exception_ptr failure;
  try {
    compute();
  } catch (...) {
    failure = std::current_exception();
  }
  // Every task compute spawned was synced before it returned or threw, so
  // the helpers only need to notice that the run is over.
  active_.store(false, std::memory_order_release);
  while (busy_.load(std::memory_order_acquire) != 0)
    std::this_thread::yield();
  if (failure)
    std::rethrow_exception(failure);
}

bool TaskPool::spawn(unsigned worker, const Task &task, unsigned depth) {
  Worker &w = workers_[worker];
  if (w.owned == kSlots)
    return false;
  Slot &s = w.slots[w.owned];
  s.task = task;
  s.depth = depth;
  s.state.store(kReady, std::memory_order_release);
  ++w.owned;
  publish_if_asked(w);
  ++w.counters.spawned;
  return true;
}

void TaskPool::publish_if_asked(Worker &w) {
  // Publish the bound only when a thief found nothing below the old one: a
  // line every spawn and sync wrote would move between the cores at every
  // steal attempt. Reading the flag keeps the line shared, which is cheap.
  if (w.request.load(std::memory_order_relaxed)) {
    w.request.store(false, std::memory_order_relaxed);
    w.top.store(w.owned, std::memory_order_release);
  }
}

std::optional<Edge> TaskPool::sync(unsigned worker) {
  Worker &w = workers_[worker];
  const std::uint32_t i = w.owned - 1;
  Slot &s = w.slots[i];
  std::uint32_t state = kReady;
  if (s.state.compare_exchange_strong(state, kEmpty, std::memory_order_acquire,
                                      std::memory_order_acquire)) {
    w.owned = i;
    publish_if_asked(w);
    return std::nullopt;
  }
  // Stolen: help the thief until it is done. The slot stays ours (owned
  // is not lowered), so the tasks run meanwhile spawn above it.
  if (state != kDone) {
    const unsigned thief = (state >> kThiefShift) - 1;
    unsigned failures = 0;
    while (s.state.load(std::memory_order_acquire) != kDone) {
      publish_if_asked(w); // the tasks below slot i are free to steal
      if (steal(worker, thief))
        ++w.counters.leapfrogs;
      else if (++failures % kSpinsBeforeYield == 0)
        std::this_thread::yield();
      else
        pause();
    }
  }
  w.owned = i;
  // Thieves start at `oldest`: below it every task was stolen, so slot i,
  // free again, must not be below it.
  if (w.oldest.load(std::memory_order_relaxed) > i)
    w.oldest.store(i, std::memory_order_relaxed);
  const Edge result = s.result;
  std::exception_ptr error = std::move(s.error);
  s.error = nullptr;
  s.state.store(kEmpty, std::memory_order_relaxed);
  if (error)
    std::rethrow_exception(error);
  return result;
}

bool TaskPool::steal(unsigned thief, unsigned victim) {
  Worker &v = workers_[victim];
  // The bound may be stale either way: a slot's state alone decides. Only
  // a few slots from the oldest: each slot read is a line the owner writes
  // again at its next spawn there, and below `oldest` tasks were stolen.
  const std::uint32_t top = v.top.load(std::memory_order_acquire);
  std::uint32_t i = v.oldest.load(std::memory_order_relaxed);
  for (const std::uint32_t end = std::min(top, i + kSlotsProbed); i < end; ++i) {
    Slot &s = v.slots[i];
    std::uint32_t state = s.state.load(std::memory_order_relaxed);
    if (state != kReady)
      continue;
    // One try: a lost race means the owner or another thief is on it.
    if (!s.state.compare_exchange_strong(state, kStolen | ((thief + 1) << kThiefShift),
                                         std::memory_order_acquire, std::memory_order_relaxed))
      return false;
    v.oldest.store(i + 1, std::memory_order_relaxed);
    const Task task = s.task;
    const unsigned depth = s.depth;
    try {
      s.result = runner_(thief, task, depth);
    } catch (...) {
      s.error = std::current_exception();
    }
    s.state.store(kDone, std::memory_order_release);
    ++workers_[thief].counters.steals;
    return true;
  }
  if (!v.request.load(std::memory_order_relaxed))
    v.request.store(true, std::memory_order_relaxed);
  return false;
}

void TaskPool::help(unsigned me) {
  Worker &w = workers_[me];
  std::uint32_t seen = 0;
  for (;;) {
    epoch_.wait(seen, std::memory_order_acquire);
    seen = epoch_.load(std::memory_order_acquire);
    if (stopping_.load(std::memory_order_acquire))
      return;
    unsigned failures = 0;
    while (active_.load(std::memory_order_acquire)) {
      // Any worker but me, at random.
      unsigned victim = static_cast<unsigned>(next_random(w.random) % (workers_.size() - 1));
      if (victim >= me)
        ++victim;
      if (steal(me, victim)) {
        failures = 0;
      } else if (++failures % kSpinsBeforeYield == 0) {
        std::this_thread::yield();
      } else {
        // Back off: every attempt reads lines the victim writes.
        for (unsigned i = 0; i < failures; ++i)
          pause();
      }
    }
    busy_.fetch_sub(1, std::memory_order_release);
  }
}

PoolCounters TaskPool::counters() const {
  PoolCounters sum;
  for (const Worker &w : workers_) {
    sum.spawned += w.counters.spawned;
    sum.steals += w.counters.steals;
    sum.leapfrogs += w.counters.leapfrogs;
  }
  return sum;
}

} // namespace bdd
