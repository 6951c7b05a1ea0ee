#include "trace_file.hpp"

#include "recorder.hpp"

#include <fmt/format.h>
#include <poc/serialize/process_id.hpp>
#include <poc/serialize/reader.hpp>
#include <poc/serialize/string.hpp>
#include <poc/serialize/writer.hpp>

#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

namespace poc::detail::trace {
namespace {

/// The open trace file (world rank 0 only) and its name.
std::FILE *g_file = nullptr;
std::string g_path;

/// The tag of the events' messages to world rank 0 (MPI_COMM_WORLD carries
/// nothing else point to point: the runtime talks on duplicates of it).
constexpr int kEventsTag = 7101;

/// An event as gathered: its names copied.
struct Gathered {
  Event e;
  std::string name;
  std::string cls;
  int host = 0;
};

/// One host's part of the trace.
struct HostPart {
  int host = 0;
  int world_rank = 0;
  std::string node;
  std::vector<ThreadEvents> threads;
};

void write_event(Writer &w, const Event &e) {
  w.write_all(e.ts, e.dur, std::string(e.name ? e.name : ""), std::string(e.cls ? e.cls : ""),
              e.method, e.id, e.bytes, e.oob_bytes, e.reply_bytes, e.process, e.from, e.track,
              static_cast<std::uint8_t>(e.phase), static_cast<std::uint8_t>(e.cat), e.failed);
}

Gathered read_event(Reader &r, int host) {
  Gathered g;
  g.host = host;
  Event &e = g.e;
  std::uint8_t phase = 0, cat = 0;
  r.read_all(e.ts, e.dur, g.name, g.cls, e.method, e.id, e.bytes, e.oob_bytes, e.reply_bytes,
             e.process, e.from, e.track, phase, cat, e.failed);
  e.phase = static_cast<Phase>(phase);
  e.cat = static_cast<Cat>(cat);
  return g;
}

/// This host's events, encoded for world rank 0.
std::vector<std::byte> encode_host(int host, int world_rank) {
  char node[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(node, &len);
  Writer w;
  std::vector<ThreadEvents *> threads = all_threads();
  // Threads of an earlier poc::run of the program recorded nothing here.
  std::erase_if(threads, [](const ThreadEvents *t) { return t->events.empty() && !t->dropped; });
  w.write_all(host, world_rank, std::string(node, static_cast<std::size_t>(len)),
              static_cast<std::uint64_t>(threads.size()));
  for (const ThreadEvents *t : threads) {
    w.write_all(t->track, t->name, t->dropped, static_cast<std::uint64_t>(t->events.size()));
    for (const Event &e : t->events)
      write_event(w, e);
  }
  return w.take();
}

void decode_host(std::span<const std::byte> bytes, HostPart &part, std::vector<Gathered> &events) {
  Reader r(bytes);
  std::uint64_t threads = 0;
  r.read_all(part.host, part.world_rank, part.node, threads);
  for (std::uint64_t i = 0; i < threads; ++i) {
    ThreadEvents t;
    std::uint64_t count = 0;
    r.read_all(t.track, t.name, t.dropped, count);
    for (std::uint64_t k = 0; k < count; ++k)
      events.push_back(read_event(r, part.host));
    part.threads.push_back(std::move(t));
  }
}

/// `text` as a JSON string literal.
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

bool is_call(Cat c) { return c == Cat::call || c == Cat::start || c == Cat::future; }

bool is_request(Cat c) {
  return is_call(c) || c == Cat::create || c == Cat::destroy || c == Cat::activate ||
         c == Cat::checkpoint;
}

const char *cat_name(Cat c) {
  switch (c) {
  case Cat::call:
    return "call";
  case Cat::start:
    return "start";
  case Cat::future:
    return "future";
  case Cat::create:
    return "new";
  case Cat::destroy:
    return "delete";
  case Cat::activate:
    return "activate";
  case Cat::checkpoint:
    return "checkpoint";
  case Cat::save:
    return "save";
  case Cat::sync:
    return "sync";
  case Cat::barrier:
    return "barrier";
  case Cat::receive:
    return "receive";
  case Cat::serve:
    return "serve";
  case Cat::track:
    return "track";
  }
  return "?";
}

/// Names the methods served by id: each caller recorded the name it
/// called (`what`); a method no caller named keeps its class (the
/// server's, found through the request's flow for its caller) and id.
class MethodNames {
public:
  explicit MethodNames(const std::vector<Gathered> &events) {
    for (const Gathered &g : events) {
      if (g.e.phase != Phase::complete || !is_call(g.e.cat))
        continue;
      if (g.e.from < 0 && !g.name.empty())
        names_.emplace(g.e.method, g.name);
      if (g.e.from >= 0 && g.e.id)
        classes_.emplace(g.e.id, g.cls);
    }
  }
  std::string operator()(const Gathered &g) const {
    if (!g.name.empty())
      return g.name;
    if (auto it = names_.find(g.e.method); it != names_.end())
      return it->second;
    std::string cls = g.cls;
    if (auto it = classes_.find(g.e.id); cls.empty() && it != classes_.end())
      cls = it->second;
    return fmt::format("{}::#{:016x}", cls.empty() ? "?" : cls, g.e.method);
  }

private:
  std::unordered_map<std::uint64_t, std::string> names_;
  /// The class that served each flow.
  std::unordered_map<std::uint64_t, std::string> classes_;
};

/// The slice's name as the trace shows it.
std::string slice_name(const Gathered &g, const MethodNames &methods) {
  const bool served = g.e.from >= 0;
  switch (g.e.cat) {
  case Cat::call:
    return served ? methods(g) : "call " + methods(g);
  case Cat::start:
  case Cat::future:
    return served ? methods(g) : "start " + methods(g);
  case Cat::create:
    return "new " + g.cls;
  case Cat::destroy:
    return served ? "delete " + g.cls : "delete";
  case Cat::activate:
    return "activate " + g.cls;
  case Cat::checkpoint:
    return served ? "checkpoint " + g.cls : "checkpoint";
  case Cat::save:
    return "save " + g.cls;
  case Cat::sync:
    return "poc::sync";
  case Cat::barrier:
    return "barrier";
  case Cat::receive:
    return "receive";
  case Cat::serve:
    return "serve " + g.cls + " " + id_text(g.e.process);
  case Cat::track:
    break;
  }
  return g.name;
}

std::string slice_args(const Gathered &g) {
  const Event &e = g.e;
  std::string args;
  auto add = [&](std::string_view key, const std::string &value) {
    args += fmt::format("{}{}:{}", args.empty() ? "" : ",", quoted(key), value);
  };
  if (e.process.host >= 0)
    add("process", quoted(id_text(e.process)));
  if (e.from >= 0)
    add("from host", std::to_string(e.from));
  if (is_request(e.cat) || e.cat == Cat::receive)
    add("bytes", std::to_string(e.bytes));
  if (e.oob_bytes)
    add("out-of-band bytes", std::to_string(e.oob_bytes));
  if (e.reply_bytes)
    add("reply bytes", std::to_string(e.reply_bytes));
  if (e.cat == Cat::barrier)
    add("group", quoted(fmt::format("{:016x}", e.id)));
  if (e.failed)
    add("failed", "true");
  return "{" + args + "}";
}

/// Microseconds since `origin`, with the nanoseconds kept.
std::string micros(std::int64_t ns, std::int64_t origin) {
  const std::int64_t t = ns - origin;
  return fmt::format("{}.{:03}", t / 1000, t % 1000);
}

/// Events in time order; at one time a longer slice before those it holds
/// and slices before the flow events bound to them.
void sort_by_time(std::vector<Gathered> &events) {
  std::stable_sort(events.begin(), events.end(), [](const Gathered &a, const Gathered &b) {
    if (a.e.ts != b.e.ts)
      return a.e.ts < b.e.ts;
    const bool a_slice = a.e.phase == Phase::complete, b_slice = b.e.phase == Phase::complete;
    if (a_slice != b_slice)
      return a_slice;
    return a_slice && a.e.dur > b.e.dur;
  });
}

/// The metadata event that names track `tid` of host `pid`.
std::string track_name(int pid, std::int32_t tid, const std::string &name) {
  return fmt::format(R"({{"ph":"M","pid":{},"tid":{},"name":"thread_name","args":{{"name":{}}}}})",
                     pid, tid, quoted(name));
}

void write_trace(std::FILE *f, std::vector<HostPart> &parts, std::vector<Gathered> &events) {
  sort_by_time(events);
  const MethodNames methods(events);
  std::int64_t origin = events.empty() ? 0 : events.front().e.ts;
  bool first = true;
  auto line = [&](const std::string &json) {
    fmt::print(f, "{}\n{}", first ? "" : ",", json);
    first = false;
  };
  fmt::print(f, "{{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
  for (const HostPart &p : parts) {
    std::uint64_t dropped = 0;
    for (const ThreadEvents &t : p.threads)
      dropped += t.dropped;
    std::string name = fmt::format("host {} (rank {}, {})", p.host, p.world_rank, p.node);
    if (dropped)
      name += fmt::format(" - {} events dropped", dropped);
    line(fmt::format(R"({{"ph":"M","pid":{},"name":"process_name","args":{{"name":{}}}}})", p.host,
                     quoted(name)));
    line(fmt::format(
        R"({{"ph":"M","pid":{},"name":"process_sort_index","args":{{"sort_index":{}}}}})", p.host,
        p.host));
    for (const ThreadEvents &t : p.threads)
      line(track_name(p.host, t.track, t.name));
  }
  for (const Gathered &g : events) {
    const Event &e = g.e;
    switch (e.phase) {
    case Phase::track_name:
      line(track_name(g.host, e.track, g.cls + " " + id_text(e.process)));
      break;
    case Phase::complete:
      line(fmt::format(
          R"({{"ph":"X","pid":{},"tid":{},"ts":{},"dur":{},"name":{},"cat":"{}","args":{}}})",
          g.host, e.track, micros(e.ts, origin), micros(e.dur, 0), quoted(slice_name(g, methods)),
          cat_name(e.cat), slice_args(g)));
      break;
    case Phase::flow_start:
    case Phase::flow_step:
    case Phase::flow_end:
      // Flows are matched by category, name and id; "e": bound to the
      // slice that encloses the event.
      line(fmt::format(
          R"({{"ph":"{}","pid":{},"tid":{},"ts":{},"name":"request","cat":"flow","id":{}{}}})",
          static_cast<char>(e.phase), g.host, e.track, micros(e.ts, origin), e.id,
          e.phase == Phase::flow_start ? "" : R"(,"bp":"e")"));
      break;
    }
  }
  fmt::print(f, "\n]}}\n");
}

void report_dropped(const std::vector<HostPart> &parts) {
  for (const HostPart &p : parts)
    for (const ThreadEvents &t : p.threads)
      if (t.dropped)
        fmt::print(stderr,
                   "poc: POC_TRACE: host {} thread '{}' dropped {} events (a thread keeps at "
                   "most {}; POC_TRACE_EVENTS sets how many); the trace misses them\n",
                   p.host, t.name, t.dropped, events_per_thread());
}

/// This host's events encoded, or nothing if they cannot be (out of
/// memory, or more than one MPI message holds): world rank 0 waits for
/// every rank's message, so each rank sends one.
std::vector<std::byte> encoded_or_nothing(int host, int world_rank) noexcept {
  try {
    std::vector<std::byte> bytes = encode_host(host, world_rank);
    if (bytes.size() <= static_cast<std::size_t>(std::numeric_limits<int>::max()))
      return bytes;
  } catch (const std::exception &) {
    // Reported by world rank 0, which receives nothing from this host.
  }
  return {};
}

/// Receives rank `r`'s events at world rank 0.
std::vector<std::byte> receive_from(int r) {
  MPI_Status status;
  MPI_Probe(r, kEventsTag, MPI_COMM_WORLD, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  std::vector<std::byte> bytes(static_cast<std::size_t>(count));
  MPI_Recv(bytes.data(), count, MPI_BYTE, r, kEventsTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return bytes;
}

/// World rank 0: gathers every rank's events and writes the trace.
void gather_and_write(std::vector<std::byte> mine, int world_size, int base) {
  // Everything is received before anything is decoded, so that no rank
  // waits in its send for a root that gave up.
  std::vector<std::vector<std::byte>> received(static_cast<std::size_t>(world_size));
  received[0] = std::move(mine);
  for (int r = 1; r < world_size; ++r)
    received[static_cast<std::size_t>(r)] = receive_from(r);
  std::vector<HostPart> parts;
  std::vector<Gathered> events;
  for (int r = 0; r < world_size; ++r) {
    if (received[static_cast<std::size_t>(r)].empty()) {
      fmt::print(stderr,
                 "poc: POC_TRACE: the events of host {} could not be gathered (out of "
                 "memory, or more than 2 GiB); the trace misses them\n",
                 base + r);
      continue;
    }
    parts.emplace_back();
    decode_host(received[static_cast<std::size_t>(r)], parts.back(), events);
  }
  report_dropped(parts);
  write_trace(g_file, parts, events);
}

/// POC_TRACE_EVENTS: events one thread keeps at most, a positive decimal
/// number; unset or wrong (said so): the default.
std::uint64_t events_per_thread_asked() {
  const char *text = std::getenv("POC_TRACE_EVENTS");
  if (!text || !*text)
    return kDefaultEventsPerThread;
  char *end = nullptr;
  errno = 0;
  const unsigned long long n = std::strtoull(text, &end, 10);
  if (*text == '-' || *end || errno || n == 0) {
    fmt::print(stderr,
               "poc: POC_TRACE_EVENTS={} is not a positive number of events; a thread keeps at "
               "most {}\n",
               text, kDefaultEventsPerThread);
    return kDefaultEventsPerThread;
  }
  return n;
}

} // namespace

void start_tracing(int world_rank, int base) {
  // Whether this job traces, and how many events a thread keeps.
  std::uint64_t settings[2] = {0, kDefaultEventsPerThread};
  if (world_rank == 0) {
    const char *path = std::getenv("POC_TRACE");
    if (path && *path) {
      g_path = base == 0 ? path : std::string(path) + "." + std::to_string(base);
      g_file = std::fopen(g_path.c_str(), "w");
      if (g_file) {
        settings[0] = 1;
        settings[1] = events_per_thread_asked();
      } else {
        fmt::print(stderr,
                   "poc: POC_TRACE: cannot write the trace to '{}': {}; the run is not "
                   "traced\n",
                   g_path, std::strerror(errno));
      }
    }
  }
  MPI_Bcast(settings, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  set_events_per_thread(settings[1]);
  g_on.store(settings[0] != 0);
}

void finish_tracing(int world_rank, int world_size, int base) noexcept {
  if (!on())
    return;
  g_on.store(false);
  std::vector<std::byte> mine = encoded_or_nothing(base + world_rank, world_rank);
  clear_all_threads();
  if (world_rank != 0) {
    MPI_Send(mine.data(), static_cast<int>(mine.size()), MPI_BYTE, 0, kEventsTag, MPI_COMM_WORLD);
    return;
  }
  try {
    gather_and_write(std::move(mine), world_size, base);
  } catch (const std::exception &e) {
    fmt::print(stderr, "poc: POC_TRACE: cannot write the trace to '{}': {}\n", g_path, e.what());
  }
  errno = 0;
  const bool failed = std::ferror(g_file) != 0;
  if (std::fclose(g_file) != 0 || failed)
    fmt::print(stderr, "poc: POC_TRACE: cannot write the trace to '{}': {}\n", g_path,
               std::strerror(errno ? errno : EIO));
  g_file = nullptr;
}

} // namespace poc::detail::trace
