// Streams of started calls from many senders at once, as coalesced batches
// carry them (docs/runtime.md section 7, "Coalesced starts"): every rank
// hosts a Sink and two Streamers; the Streamers, the main program and two
// of its local threads each start calls to every Sink, with arguments of
// every size class (empty, small, near a batch's limit, larger than a
// posted receive, out of band), some of them to a POC_NONBLOCKING method,
// some failing, mixed with synchronous calls and futures. A Sink checks
// that each sender's calls arrive once, whole and in order; a synchronous
// call checks that no started call of its caller is still behind it; each
// sender's poc::sync() must report its failed calls. Run under mpirun with
// 2, 3 and 4 ranks (oversubscribed), and at 2 through MPI instead of the
// rings.

#include "check.hpp"

#include <poc/gen/runtime.hpp>

#include <mpi.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace stress {

/// Argument sizes, cycled by call number: empty, small, a few KiB, near a
/// batch's limit, beyond a posted receive (an oversized message) and out
/// of band (>= 64 KiB).
constexpr std::size_t kSizes[] = {0, 8, 16, 200, 3000, 15000, 20000, 70000};
constexpr std::size_t kSizeClasses = sizeof kSizes / sizeof kSizes[0];

std::vector<std::uint8_t> payload(std::uint32_t stream, std::uint32_t seq) {
  std::vector<std::uint8_t> bytes(kSizes[seq % kSizeClasses]);
  for (std::size_t j = 0; j < bytes.size(); ++j)
    bytes[j] = static_cast<std::uint8_t>(stream * 131 + seq * 7 + j);
  return bytes;
}

/// Call `seq` of a stream fails on purpose when this holds.
bool fails(std::uint32_t seq) { return seq % 101 == 7; }

/// Receives the streams and checks them.
class Sink {
public:
  /// Call `seq` of `stream`; returns how many calls of the stream it has
  /// had, this one included.
  std::uint32_t take(std::uint32_t stream, std::uint32_t seq, std::vector<std::uint8_t> bytes) {
    std::uint32_t &next = next_[stream];
    if (seq != next)
      ++faults_; // lost, duplicated or out of order
    if (bytes != payload(stream, seq))
      ++faults_;
    next = seq + 1;
    if (fails(seq))
      throw std::runtime_error("deliberate failure of call " + std::to_string(seq));
    return next;
  }
  /// take, marked POC_NONBLOCKING: it runs where it arrives when the Sink
  /// is idle, so queued and in-place calls interleave.
  std::uint32_t take_in_place(std::uint32_t stream, std::uint32_t seq,
                              std::vector<std::uint8_t> bytes) {
    return take(stream, seq, std::move(bytes));
  }
  std::uint32_t count(std::uint32_t stream) { return next_[stream]; }
  std::uint64_t faults() const { return faults_; }

private:
  std::map<std::uint32_t, std::uint32_t> next_;
  std::uint64_t faults_ = 0;
};

struct Sink_interface {
  static constexpr const char *class_name = "stress::Sink";
  enum : std::uint64_t {
    ctor_0 = ::poc::method_id("stress::Sink::Sink()"),
    take_0 = ::poc::method_id(
        "stress::Sink::take(std::uint32_t,std::uint32_t,std::vector<std::uint8_t>)"),
    take_in_place_0 = ::poc::method_id(
        "stress::Sink::take_in_place(std::uint32_t,std::uint32_t,std::vector<std::uint8_t>)"),
    count_0 = ::poc::method_id("stress::Sink::count(std::uint32_t)"),
    faults_0 = ::poc::method_id("stress::Sink::faults() const"),
  };
};

struct Sink_client : Sink_interface {
  static void take_start(Sink *self, std::uint64_t method, std::uint32_t stream, std::uint32_t seq,
                         const std::vector<std::uint8_t> &bytes) {
    ::poc::Call call(self, method);
    call.args(stream, seq, bytes);
    call.start();
  }
  static ::poc::future<std::uint32_t> take_future(Sink *self, std::uint32_t stream,
                                                  std::uint32_t seq,
                                                  const std::vector<std::uint8_t> &bytes) {
    ::poc::Call call(self, take_0);
    call.args(stream, seq, bytes);
    return call.start_future<std::uint32_t>();
  }
  static std::uint32_t take(Sink *self, std::uint32_t stream, std::uint32_t seq,
                            const std::vector<std::uint8_t> &bytes) {
    ::poc::Call call(self, take_0);
    call.args(stream, seq, bytes);
    return call.invoke<std::uint32_t>();
  }
  static std::uint32_t count(Sink *self, std::uint32_t stream) {
    ::poc::Call call(self, count_0);
    call.args(stream);
    return call.invoke<std::uint32_t>();
  }
  static std::uint64_t faults(Sink *self) {
    ::poc::Call call(self, faults_0);
    return call.invoke<std::uint64_t>();
  }
};

struct Sink_server : Sink_interface {
  static void dispatch(Sink &self, std::uint64_t method, ::poc::Request &rq) {
    switch (method) {
    case take_0:
      rq.invoke(self, &Sink::take);
      return;
    case take_in_place_0:
      rq.invoke(self, &Sink::take_in_place);
      return;
    case count_0:
      rq.invoke(self, &Sink::count);
      return;
    case faults_0:
      rq.invoke(self, &Sink::faults);
      return;
    default:
      rq.unknown_method(method, class_name);
    }
  }
  static Sink *construct(std::uint64_t ctor, ::poc::Request &rq) {
    if (ctor != ctor_0)
      rq.unknown_method(ctor, class_name);
    return rq.construct<Sink>();
  }
  static const char *nonblocking(std::uint64_t method) noexcept {
    return method == take_in_place_0 ? "stress::Sink::take_in_place" : nullptr;
  }
};

inline const ::poc::ClassRegistration<Sink, Sink_server> Sink_registration{"stress::Sink"};

/// One sender's stream to every sink: `calls` calls each, started (to
/// either method), or now and then synchronous or with a future; then, if
/// `own_sync` (the sender is the only one of its process), poc::sync(),
/// which must report the failed started calls. Returns the number of
/// problems it saw (0 when all is well).
std::uint32_t stream_to(const std::vector<Sink *> &sinks, std::uint32_t sender, std::uint32_t calls,
                        bool own_sync) {
  std::uint32_t problems = 0;
  std::vector<::poc::future<std::uint32_t>> futures;
  std::vector<std::uint32_t> future_seqs;
  bool started_failure = false;
  for (std::uint32_t seq = 0; seq < calls; ++seq) {
    for (std::uint32_t k = 0; k < sinks.size(); ++k) {
      const std::uint32_t stream = sender * 16 + k;
      const std::vector<std::uint8_t> bytes = payload(stream, seq);
      if (seq % 37 == 5) {
        // Nothing started before it may still be behind it.
        try {
          if (Sink_client::take(sinks[k], stream, seq, bytes) != seq + 1)
            ++problems;
        } catch (const poc::remote_error &) {
          if (!fails(seq))
            ++problems;
        }
      } else if (seq % 53 == 11) {
        futures.push_back(Sink_client::take_future(sinks[k], stream, seq, bytes));
        future_seqs.push_back(seq);
      } else {
        started_failure |= fails(seq);
        Sink_client::take_start(sinks[k],
                                seq % 2 ? Sink_interface::take_0 : Sink_interface::take_in_place_0,
                                stream, seq, bytes);
      }
    }
  }
  for (std::size_t i = 0; i < futures.size(); ++i) {
    try {
      if (futures[i].get() != future_seqs[i] + 1)
        ++problems;
    } catch (const poc::remote_error &) {
      if (!fails(future_seqs[i]))
        ++problems;
    }
  }
  if (!own_sync)
    return problems;
  bool reported = false;
  try {
    poc::sync();
  } catch (const poc::remote_error &e) {
    reported = std::string(e.what()).find("deliberate failure") != std::string::npos;
  }
  if (reported != started_failure)
    ++problems;
  return problems;
}

/// A sender hosted on some rank.
class Streamer {
public:
  std::uint32_t run(std::vector<Sink *> sinks, std::uint32_t sender, std::uint32_t calls) {
    return stream_to(sinks, sender, calls, true);
  }
};

struct Streamer_interface {
  static constexpr const char *class_name = "stress::Streamer";
  enum : std::uint64_t {
    ctor_0 = ::poc::method_id("stress::Streamer::Streamer()"),
    run_0 = ::poc::method_id(
        "stress::Streamer::run(std::vector<stress::Sink*>,std::uint32_t,std::uint32_t)"),
  };
};

struct Streamer_server : Streamer_interface {
  static void dispatch(Streamer &self, std::uint64_t method, ::poc::Request &rq) {
    if (method != run_0)
      rq.unknown_method(method, class_name);
    rq.invoke(self, &Streamer::run);
  }
  static Streamer *construct(std::uint64_t ctor, ::poc::Request &rq) {
    if (ctor != ctor_0)
      rq.unknown_method(ctor, class_name);
    return rq.construct<Streamer>();
  }
  static const char *nonblocking(std::uint64_t) noexcept { return nullptr; }
};

inline const ::poc::ClassRegistration<Streamer, Streamer_server> Streamer_registration{
    "stress::Streamer"};

} // namespace stress

namespace {

using namespace stress;

constexpr std::uint32_t kCalls = 300;
constexpr std::uint32_t kStreamersPerRank = 2;
constexpr std::uint32_t kLocalThreads = 2;

int body() {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::vector<Sink *> sinks;
  std::vector<Streamer *> streamers;
  for (int r = 0; r < ranks; ++r) {
    const poc::machine m("rank:" + std::to_string(r));
    sinks.push_back(poc::create<Sink>(m, Sink_interface::ctor_0));
    for (std::uint32_t s = 0; s < kStreamersPerRank; ++s)
      streamers.push_back(poc::create<Streamer>(m, Streamer_interface::ctor_0));
  }
  check::section("every sender's started calls arrive once, whole and in order", [&] {
    // Senders 0 (main) and 1..kLocalThreads (its threads) run here and
    // share main's poc::sync(), which waits for the threads as well; the
    // Streamers are senders kLocalThreads + 1 on.
    std::vector<::poc::future<std::uint32_t>> runs;
    for (std::uint32_t i = 0; i < streamers.size(); ++i) {
      ::poc::Call call(streamers[i], Streamer_interface::run_0);
      call.args(sinks, kLocalThreads + 1 + i, kCalls);
      runs.push_back(call.start_future<std::uint32_t>());
    }
    std::vector<std::uint32_t> local_problems(kLocalThreads + 1, 0);
    for (std::uint32_t t = 1; t <= kLocalThreads; ++t)
      poc::start_local([&, t] { local_problems[t] = stream_to(sinks, t, kCalls, false); });
    local_problems[0] = stream_to(sinks, 0, kCalls, false);
    // Every started call has failures among its callers' calls.
    CHECK(check::throws<poc::remote_error>([] { poc::sync(); }, "deliberate failure"));
    for (std::uint32_t t = 0; t <= kLocalThreads; ++t)
      CHECK(local_problems[t] == 0);
    for (auto &r : runs)
      CHECK(r.get() == 0);
    const std::uint32_t senders = kLocalThreads + 1 + static_cast<std::uint32_t>(streamers.size());
    for (std::uint32_t k = 0; k < sinks.size(); ++k) {
      CHECK(Sink_client::faults(sinks[k]) == 0);
      for (std::uint32_t s = 0; s < senders; ++s)
        CHECK(Sink_client::count(sinks[k], s * 16 + k) == kCalls);
    }
  });
  for (Streamer *s : streamers)
    poc::destroy(s);
  for (Sink *s : sinks)
    poc::destroy(s);
  std::printf("%s\n", check::failures ? "SOME CHECKS FAILED" : "ALL CHECKS PASSED");
  return check::failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  return poc::run(argc, argv, [](int, char **) { return body(); });
}
