#include "recorder.hpp"

#include <chrono>
#include <memory>
#include <mutex>
#include <new>

namespace poc::detail::trace {

std::atomic<bool> g_on{false};

namespace {

/// Room a thread's buffer starts with (it grows as a vector does, up to
/// events_per_thread()).
constexpr std::size_t kInitialEvents = 4096;

std::atomic<std::uint64_t> g_events_per_thread{kDefaultEventsPerThread};

/// Tracks are numbered per host: threads from 1, processes from
/// kFirstProcessTrack (viewers sort tracks by number: threads first).
constexpr std::int32_t kFirstProcessTrack = 1000000;

/// Every thread's buffer, kept after the thread ends until the trace is
/// written. The mutex guards the list, taken once per thread.
struct Registry {
  std::mutex mu;
  std::vector<std::unique_ptr<ThreadEvents>> threads;
  std::atomic<std::int32_t> next_thread_track{1};
  std::atomic<std::int32_t> next_process_track{kFirstProcessTrack};
  std::atomic<std::uint32_t> next_flow{1};
};

Registry &registry() {
  static Registry r;
  return r;
}

thread_local ThreadEvents *t_events = nullptr;
thread_local std::int32_t t_context_track = 0;

ThreadEvents &thread_events() {
  if (t_events)
    return *t_events;
  Registry &r = registry();
  auto owned = std::make_unique<ThreadEvents>();
  owned->track = r.next_thread_track.fetch_add(1, std::memory_order_relaxed);
  owned->name = "thread " + std::to_string(owned->track);
  owned->events.reserve(kInitialEvents);
  t_events = owned.get();
  std::lock_guard<std::mutex> g(r.mu);
  r.threads.push_back(std::move(owned));
  return *t_events;
}

} // namespace

void set_events_per_thread(std::uint64_t n) noexcept { g_events_per_thread.store(n); }

std::uint64_t events_per_thread() noexcept { return g_events_per_thread.load(); }

std::int64_t now() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void name_thread(const char *name, bool numbered) {
  if (!on())
    return; // a thread that is not traced gets no buffer
  ThreadEvents &t = thread_events();
  t.name = numbered ? std::string(name) + " " + std::to_string(t.track) : name;
}

std::int32_t thread_track() noexcept { return thread_events().track; }

std::int32_t current_track() noexcept { return t_context_track ? t_context_track : thread_track(); }

void set_context_track(std::int32_t track) noexcept { t_context_track = track; }

std::int32_t process_track(const ProcessId &id, const char *cls) noexcept {
  Event e;
  e.phase = Phase::track_name;
  e.cat = Cat::track;
  e.ts = now();
  e.cls = cls;
  e.process = id;
  e.track = registry().next_process_track.fetch_add(1, std::memory_order_relaxed);
  record(e);
  return e.track;
}

std::uint32_t next_flow() noexcept {
  std::uint32_t f = registry().next_flow.fetch_add(1, std::memory_order_relaxed);
  // After 2^32 requests the numbers repeat; 0 means "not traced".
  return f ? f : registry().next_flow.fetch_add(1, std::memory_order_relaxed);
}

void record(const Event &e) noexcept {
  ThreadEvents &t = thread_events();
  if (t.events.size() >= g_events_per_thread.load(std::memory_order_relaxed)) {
    ++t.dropped;
    return;
  }
  try {
    t.events.push_back(e);
  } catch (const std::bad_alloc &) {
    ++t.dropped;
  }
}

void Slice::begin(Cat cat, const char *name, std::int32_t track) noexcept {
  Event &e = e_.emplace();
  e.cat = cat;
  e.name = name;
  e.track = track;
  e.ts = now();
}

void Slice::end() noexcept {
  e_->dur = now() - e_->ts;
  record(*e_);
}

void Slice::flow(Phase phase, std::uint64_t id, std::int64_t ts) noexcept {
  Event f;
  f.phase = phase;
  f.cat = e_->cat;
  f.id = id;
  f.track = e_->track;
  f.ts = ts;
  record(f);
}

void Slice::flow_out(std::uint64_t id, Phase phase) noexcept { flow(phase, id, now()); }

void Slice::flow_in(std::uint64_t id) noexcept { flow(Phase::flow_end, id, e_->ts); }

std::vector<ThreadEvents *> all_threads() {
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.mu);
  std::vector<ThreadEvents *> out;
  for (auto &t : r.threads)
    out.push_back(t.get());
  return out;
}

void clear_all_threads() noexcept {
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.mu);
  for (auto &t : r.threads) {
    std::vector<Event>().swap(t->events);
    t->dropped = 0;
  }
}

} // namespace poc::detail::trace
