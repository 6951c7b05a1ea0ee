// Runtime benchmarks, each a ratio against a raw-MPI baseline measured in
// the same job: sync call round trip, start throughput, 32 MiB argument,
// process creation (vs MPI_Comm_spawn). The raw baselines run between the
// measured runs (their server half is a method of the benchmark process, on
// a duplicate communicator), so both see the same moment of a busy machine.
// bench/runtime/run.sh runs this (and the idle and gRPC variants) and
// prints one table.
//
//   mpirun -n 2 runtime_bench            all benchmarks
//   mpirun -n 8 runtime_bench --idle 6   round trip with 6 idle processes
//   options: --no-spawn (skip the MPI_Comm_spawn baseline),
//            --round-trip-only (for profiling),
//            --calls N (only N sync calls, no baseline: what a profile of
//            one call samples, bench/runtime/profile_call.sh), with
//            --in-place: calls of the POC_NONBLOCKING method instead;
//            --starts N (only N started calls and a poc::sync(), no
//            baseline), --start-only (the start throughput rows and
//            their baselines alone)

#include "../common/bench_report.hpp"
#include "echo.hpp"

#include <fmt/format.h>
#include <poc/gen/runtime.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using bench::clock_type;
using bench::Echo;
using bench::Echo_client;
using bench::median;
using bench::row;
using bench::seconds_since;
using I = bench::Echo_interface;

constexpr int kRuns = 7;

/// Runs `raw` and `poc` alternately kRuns times; returns the medians.
template <class Raw, class Poc> std::pair<double, double> alternate(Raw raw, Poc poc) {
  std::vector<double> r, p;
  for (int run = 0; run < kRuns; ++run) {
    r.push_back(raw());
    p.push_back(poc());
  }
  return {median(p), median(r)};
}

/// --calls: `calls` sync round trips and nothing else, so that a profile of
/// both ranks holds only the runtime's path of one call.
int profile_calls(Echo *e, int calls, bool in_place) {
  auto call = in_place ? &Echo_client::inc_in_place_0 : &Echo_client::inc_0;
  int x = 0;
  auto t0 = clock_type::now();
  for (int i = 0; i < calls; ++i)
    x = call(e, x);
  fmt::print("{} sync calls: {:.3f} us each\n", calls, seconds_since(t0) / calls * 1e6);
  poc::destroy(e);
  return x == calls ? 0 : 1;
}

/// --starts: `calls` started calls and the poc::sync() that waits for
/// them, and nothing else (the start throughput row without its baseline).
int profile_starts(Echo *e, int calls) {
  auto t0 = clock_type::now();
  for (int i = 0; i < calls; ++i)
    Echo_client::put_0_start(e, static_cast<std::uint64_t>(i), 1);
  poc::sync();
  const double seconds = seconds_since(t0);
  fmt::print("{} started calls: {:.0f} calls/s\n", calls, calls / seconds);
  poc::destroy(e);
  return 0;
}

/// Microseconds per round trip of a 4-byte MPI_Send/MPI_Recv ping-pong
/// with `e`'s rank, `iters` of them (the raw baseline of a round trip).
double raw_ping_pong(Echo *e, int peer, int iters) {
  bench::start_raw(e, I::raw_pong_0, 0, iters);
  int v = 0;
  auto t0 = clock_type::now();
  for (int i = 0; i < iters; ++i) {
    MPI_Send(&v, 1, MPI_INT, peer, 10, bench::raw_comm);
    MPI_Recv(&v, 1, MPI_INT, peer, 10, bench::raw_comm, MPI_STATUS_IGNORE);
  }
  double us = seconds_since(t0) / iters * 1e6;
  poc::sync();
  return us;
}

/// The start throughput rows: streams of started calls (plain, and to the
/// POC_NONBLOCKING method) vs the MPI_Isend message rate (16-byte
/// payloads), alternated.
void start_rows(Echo *e, int peer) {
  const int calls = 200000;
  auto raw_stream = [&] {
    bench::start_raw(e, I::raw_sink_0, 0, calls);
    constexpr int kWindow = 256;
    std::vector<std::uint64_t> buf(2 * kWindow);
    std::vector<MPI_Request> reqs(kWindow);
    auto t0 = clock_type::now();
    for (int done = 0; done < calls; done += kWindow) {
      for (int k = 0; k < kWindow; ++k)
        MPI_Isend(&buf[2 * k], 16, MPI_BYTE, peer, 11, bench::raw_comm, &reqs[k]);
      MPI_Waitall(kWindow, reqs.data(), MPI_STATUSES_IGNORE);
    }
    int token = 0;
    MPI_Recv(&token, 1, MPI_INT, peer, 12, bench::raw_comm, MPI_STATUS_IGNORE);
    double r = calls / seconds_since(t0);
    poc::sync();
    return r;
  };
  auto stream_of = [&](void (*start)(Echo *, std::uint64_t, std::uint64_t)) {
    return [&, start] {
      auto t0 = clock_type::now();
      for (int i = 0; i < calls; ++i)
        start(e, static_cast<std::uint64_t>(i), 1);
      poc::sync();
      return calls / seconds_since(t0);
    };
  };
  auto [rate, raw_rate] = alternate(raw_stream, stream_of(&Echo_client::put_0_start));
  row("start throughput, void, 16-byte args (calls/s)", rate, raw_rate, "1/s");
  auto [rate_in_place, raw_rate_in_place] =
      alternate(raw_stream, stream_of(&Echo_client::put_in_place_0_start));
  row("start throughput, POC_NONBLOCKING method (calls/s)", rate_in_place, raw_rate_in_place,
      "1/s");
  // One started call and the poc::sync() that waits for it: the call, then
  // the query and its acknowledgement (docs/runtime.md section 4).
  const int syncs = 20000;
  auto [synced, raw_synced] = alternate([&] { return raw_ping_pong(e, peer, syncs); },
                                        [&] {
                                          auto t0 = clock_type::now();
                                          for (int i = 0; i < syncs; ++i) {
                                            Echo_client::put_0_start(e, 0, 1);
                                            poc::sync();
                                          }
                                          return seconds_since(t0) / syncs * 1e6;
                                        });
  row("one start, then poc::sync() (us)", synced, raw_synced, "us");
}

int poc_main(double spawn_ms, int idle, bool rt_only, int profiled_calls, bool in_place,
             int started_calls, bool start_only) {
  // Placement puts the first process on rank 1 (rank 0 runs main).
  Echo *e = poc::create<Echo>("bench", I::ctor_0);
  if (profiled_calls > 0)
    return profile_calls(e, profiled_calls, in_place);
  if (started_calls > 0)
    return profile_starts(e, started_calls);
  int peer = poc::remote_id(e).host;
  if (start_only) {
    start_rows(e, peer);
    poc::destroy(e);
    return 0;
  }
  std::vector<Echo *> idlers;
  for (int i = 0; i < idle; ++i)
    idlers.push_back(poc::create<Echo>("bench", I::ctor_0));
  std::this_thread::sleep_for(std::chrono::milliseconds(50)); // idle hosts settle

  // Synchronous call round trip vs a 4-byte MPI_Send/MPI_Recv ping-pong.
  const int iters = 20000;
  auto raw_round_trip = [&] { return raw_ping_pong(e, peer, iters); };
  auto round_trip_of = [&](int (*call)(Echo *, int)) {
    return [&, call] {
      int x = 0;
      auto t0 = clock_type::now();
      for (int i = 0; i < iters; ++i)
        x = call(e, x);
      return seconds_since(t0) / iters * 1e6;
    };
  };
  auto [rt, raw_rt] = alternate(raw_round_trip, round_trip_of(&Echo_client::inc_0));
  if (idle) {
    row("sync call round trip, 6 idle processes (us)", rt, raw_rt, "us");
    // CPU the idle hosts use while nothing happens, in % of one core.
    // Over 10 s, as issue 11 asks: long enough for the longest naps to
    // dominate. The goal is per host: <= 1 % of one core.
    double percent = bench::idle_cpu_percent(idlers, &Echo_client::cpu_seconds_0, 10.0);
    fmt::print("RESULT|CPU per idle host over 10 s (% of one core; {} hosts)|{:.3f}|1|%|{:.4f}\n",
               idle, percent / idle, percent / idle);
    for (Echo *p : idlers)
      poc::destroy(p);
    poc::destroy(e);
    return 0;
  }
  row("sync call round trip, int arg/result (us)", rt, raw_rt, "us");
  // The same call to a POC_NONBLOCKING method, which runs where it arrives.
  auto [rt_in_place, raw_rt_in_place] =
      alternate(raw_round_trip, round_trip_of(&Echo_client::inc_in_place_0));
  row("sync call round trip, POC_NONBLOCKING method (us)", rt_in_place, raw_rt_in_place, "us");
  if (rt_only) {
    poc::destroy(e);
    return 0;
  }

  start_rows(e, peer);

  // 32 MiB argument: into a remote array (received in place) and as a
  // std::vector argument (the server allocates it), vs MPI_Send + 4-byte ack.
  const std::size_t bytes = std::size_t{32} << 20, n = bytes / sizeof(double);
  std::vector<double> data(n, 1.0);
  double *arr = poc::create_array<double>("bench", n);
  poc::write(arr, 0, n, data.data()); // first touch of the server's pages
  auto raw_big = [&] {
    bench::start_raw(e, I::raw_big_0, 0, static_cast<std::uint64_t>(bytes));
    auto t0 = clock_type::now();
    MPI_Send(data.data(), static_cast<int>(bytes), MPI_BYTE, peer, 13, bench::raw_comm);
    int token = 0;
    MPI_Recv(&token, 1, MPI_INT, peer, 14, bench::raw_comm, MPI_STATUS_IGNORE);
    double gbs = static_cast<double>(bytes) / seconds_since(t0) / 1e9;
    poc::sync();
    return gbs;
  };
  auto [bw, raw_bw] = alternate(raw_big, [&] {
    auto t0 = clock_type::now();
    poc::write(arr, 0, n, data.data());
    return static_cast<double>(bytes) / seconds_since(t0) / 1e9;
  });
  row("32 MiB argument, into a remote array (GB/s)", bw, raw_bw, "GB/s");
  auto [bwv, raw_bwv] = alternate(raw_big, [&] {
    auto t0 = clock_type::now();
    Echo_client::size_of_0(e, data);
    return static_cast<double>(bytes) / seconds_since(t0) / 1e9;
  });
  row("32 MiB std::vector argument (GB/s)", bwv, raw_bwv, "GB/s");
  poc::destroy_array(arr);

  // Creation where capacity exists (a pool thread), vs MPI_Comm_spawn.
  std::vector<double> runs;
  for (int i = 0; i < 200; ++i) {
    auto t0 = clock_type::now();
    Echo *c = poc::create<Echo>("bench", I::ctor_0);
    runs.push_back(seconds_since(t0) * 1e6);
    poc::destroy(c);
  }
  if (spawn_ms > 0)
    row("process creation (us) vs MPI_Comm_spawn", median(runs), spawn_ms * 1e3, "us");
  else
    fmt::print("RESULT|process creation (us), MPI_Comm_spawn unavailable|{:.3f}|0|us|0\n",
               median(runs));
  poc::destroy(e);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (bench::run_raw_child(argc, argv))
    return 0;
  int idle = 0;
  bool spawn = true;
  bool rt_only = false;
  int calls = 0;
  int starts = 0;
  bool in_place = false;
  bool start_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--in-place") == 0)
      in_place = true;
    if (std::strcmp(argv[i], "--idle") == 0 && i + 1 < argc)
      idle = std::atoi(argv[++i]);
    if (std::strcmp(argv[i], "--no-spawn") == 0)
      spawn = false;
    if (std::strcmp(argv[i], "--calls") == 0 && i + 1 < argc) {
      calls = std::atoi(argv[++i]);
      spawn = false;
    }
    if (std::strcmp(argv[i], "--starts") == 0 && i + 1 < argc) {
      starts = std::atoi(argv[++i]);
      spawn = false;
    }
    if (std::strcmp(argv[i], "--start-only") == 0) {
      start_only = true;
      spawn = false;
    }
    if (std::strcmp(argv[i], "--round-trip-only") == 0) {
      rt_only = true;
      spawn = false;
    }
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0)
      fmt::print(stderr, "runtime_bench needs at least 2 ranks\n");
    MPI_Finalize();
    return 1;
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &bench::raw_comm);
  double spawn_ms = -1;
  if (rank == 0 && spawn && !idle)
    spawn_ms = bench::raw_spawn_ms(argv[0]);
  MPI_Barrier(MPI_COMM_WORLD);
  int rc = poc::run(argc, argv, [&](int, char **) {
    return poc_main(spawn_ms, idle, rt_only, calls, in_place, starts, start_only);
  });
  MPI_Comm_free(&bench::raw_comm);
  MPI_Finalize();
  return rc;
}
