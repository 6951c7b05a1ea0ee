#pragma once
/// \file
/// The recorder of POC_TRACE (docs/runtime.md "Tracing a run"): what the
/// runtime does, as events kept in memory on every host and written as one
/// Chrome/Perfetto trace when the job ends (trace/trace_file.hpp). Each
/// thread appends to a buffer of its own, without a lock; a buffer holds at
/// most events_per_thread() events and counts those it drops. With tracing off
/// every recording site costs one test of a flag read once at start.

#include <poc/process_id.hpp>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace poc::detail::trace {

/// What an event shows; the trace's name and category follow from it.
enum class Cat : std::uint8_t {
  call,       ///< a synchronous call (caller: the round trip; callee: the method)
  start,      ///< a started call (caller: the send; callee: the method)
  future,     ///< a started call with a future
  create,     ///< new (caller: the round trip or send; callee: the constructor)
  destroy,    ///< delete
  activate,   ///< a persistent process's activation or persistent creation
  checkpoint, ///< a requested save of a persistent process
  save,       ///< a persistent process's state written to the store
  sync,       ///< poc::sync() waiting for the caller's started work
  barrier,    ///< a process group's barrier
  receive,    ///< the thread that received a request routes it
  serve,      ///< a pool thread serves one process (a run of its requests)
  track,      ///< metadata: a process's track (its name)
};

/// Trace event phases (the Trace Event Format's "ph").
enum class Phase : char {
  complete = 'X',
  flow_start = 's',
  flow_step = 't',
  flow_end = 'f',
  track_name = 'M',
};

/// One recorded event. Names are not copied: `name` and `cls` point at
/// text that lives as long as the program (string literals, ClassInfo
/// names). A call's name is its caller's `what` ("ns::T::f"); the method
/// served is named when the trace is written, from the names its callers
/// recorded for its id (`method`).
struct Event {
  /// Nanoseconds of the steady clock (CLOCK_MONOTONIC).
  std::int64_t ts = 0;
  std::int64_t dur = 0;
  const char *name = nullptr;
  const char *cls = nullptr;
  /// A call's method id, a creation's constructor id.
  std::uint64_t method = 0;
  /// A flow's id (flow phases, and the caller's and server's slices of a
  /// traced request), a barrier's group key.
  std::uint64_t id = 0;
  /// A request's message bytes, its out-of-band blocks' bytes (caller
  /// side), its reply's bytes (caller side of a call).
  std::uint64_t bytes = 0;
  std::uint64_t oob_bytes = 0;
  std::uint64_t reply_bytes = 0;
  /// The process called, created, served or saved.
  ProcessId process;
  /// The host a served request came from (-1: none).
  std::int32_t from = -1;
  std::int32_t track = 0;
  Phase phase = Phase::complete;
  Cat cat = Cat::call;
  bool failed = false;
};

/// Events one thread keeps at most unless POC_TRACE_EVENTS says otherwise.
inline constexpr std::uint64_t kDefaultEventsPerThread = std::uint64_t{1} << 18;

/// Sets how many events one thread keeps at most (before threads record).
void set_events_per_thread(std::uint64_t n) noexcept;
/// How many events one thread keeps at most.
std::uint64_t events_per_thread() noexcept;

/// What one thread recorded.
struct ThreadEvents {
  std::int32_t track = 0;
  std::string name;
  std::vector<Event> events;
  std::uint64_t dropped = 0;
};

/// Set once at the start of the runtime (and cleared at its end).
extern std::atomic<bool> g_on;

/// True while this host records: the one test on every recording site.
inline bool on() noexcept { return g_on.load(std::memory_order_relaxed); }

/// The steady clock in nanoseconds.
std::int64_t now() noexcept;

/// Names the calling thread's track ("pool thread", "main"), if tracing is
/// on; its number is appended to names that are not unique per host.
void name_thread(const char *name, bool numbered = true);

/// The track of the calling thread.
std::int32_t thread_track() noexcept;

/// The track of what runs on the calling thread: the process whose caller
/// context it has (set_context_track), else the thread's own.
std::int32_t current_track() noexcept;

/// The calling thread now runs for the process with track `track` (0: for
/// no process); called when the thread adopts a caller context.
void set_context_track(std::int32_t track) noexcept;

/// A new track for process `id` of class `cls` (recorded as its name).
std::int32_t process_track(const ProcessId &id, const char *cls) noexcept;

/// A fresh flow number for a request this host sends (its envelope carries
/// it; never 0).
std::uint32_t next_flow() noexcept;

/// The trace's id of flow `flow` sent by host `host`.
inline std::uint64_t flow_id(int host, std::uint32_t flow) noexcept {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(host)) << 32) | flow;
}

/// Appends `e` to the calling thread's buffer (or counts it as dropped).
void record(const Event &e) noexcept;

/// Which track a Slice is on.
enum class On {
  current, ///< current_track()
  thread,  ///< thread_track()
};

/// A complete event ("X") from construction to destruction, recorded only
/// if tracing is on when it is constructed. Inline, and its event exists
/// only then, so that with tracing off a slice is the test of the flag.
class Slice {
public:
  explicit Slice(Cat cat, const char *name = nullptr, On on = On::current) noexcept {
    if (trace::on())
      begin(cat, name, on == On::thread ? thread_track() : current_track());
  }
  /// On track `track` (a process served by this thread).
  Slice(Cat cat, std::int32_t track) noexcept {
    if (trace::on())
      begin(cat, nullptr, track);
  }
  ~Slice() {
    if (e_)
      end();
  }
  Slice(const Slice &) = delete;
  Slice &operator=(const Slice &) = delete;

  bool active() const noexcept { return e_.has_value(); }
  /// The event recorded at the end. Precondition: active().
  Event &event() noexcept { return *e_; }
  /// Records the start ("s") or a step ("t") of flow `id` now, bound to this slice.
  void flow_out(std::uint64_t id, Phase phase = Phase::flow_start) noexcept;
  /// Records the end ("f") of flow `id` at this slice's start, bound to it.
  void flow_in(std::uint64_t id) noexcept;

private:
  void begin(Cat cat, const char *name, std::int32_t track) noexcept;
  void end() noexcept;
  /// Records flow event `phase` of flow `id` at time `ts` on this slice's track.
  void flow(Phase phase, std::uint64_t id, std::int64_t ts) noexcept;

  std::optional<Event> e_;
};

/// The events of every thread of this host, to write them; call when the
/// threads that record have ended.
std::vector<ThreadEvents *> all_threads();

/// Forgets every thread's events once they are written (a later poc::run
/// of the same program writes only its own).
void clear_all_threads() noexcept;

} // namespace poc::detail::trace
