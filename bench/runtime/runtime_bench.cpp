// Runtime benchmarks, each a ratio against a raw-MPI baseline measured in
// the same job: sync call round trip, start throughput, 32 MiB argument,
// process creation (vs MPI_Comm_spawn). Run by bench/runtime/run.sh, which
// also runs the idle-process and gRPC variants and prints one table.
//
//   mpirun -n 2 runtime_bench            two ranks: all benchmarks
//   mpirun -n 8 runtime_bench --idle 6   round trip with 6 idle processes

#include "echo.hpp"

#include <poc/poc.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;
using bench::Echo;
using bench::Echo_client;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

constexpr int kRuns = 7;

/// Prints one result row (parsed by run.sh): name, poc, baseline, unit, ratio.
void row(const char *name, double poc, double base, const char *unit, double ratio) {
  std::printf("RESULT|%s|%.3f|%.3f|%s|%.2f\n", name, poc, base, unit, ratio);
  std::fflush(stdout);
}

// ------------------------------------------------------------ raw baselines
// All ranks run these before poc::run; ranks other than 0 and 1 idle in a
// sleeping wait so they do not take the cores (like idle poc hosts).

/// A barrier over all ranks in which ranks other than 0 and 1 sleep.
void sync_all(int rank) {
  MPI_Request r;
  MPI_Ibarrier(MPI_COMM_WORLD, &r);
  if (rank < 2) {
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return;
  }
  int done = 0;
  while (!done) {
    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    if (!done)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

/// Median round-trip time (us) of a 4-byte ping-pong between ranks 0 and 1.
double raw_pingpong(int rank, int iters) {
  std::vector<double> runs;
  int v = 0;
  for (int run = 0; run < kRuns; ++run) {
    sync_all(rank);
    auto t0 = clock_type::now();
    for (int i = 0; i < iters; ++i) {
      if (rank == 0) {
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ++v;
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
      }
    }
    runs.push_back(seconds_since(t0) / iters * 1e6);
  }
  return median(runs);
}

/// Median message rate (messages/s) of 16-byte MPI_Isends from 0 to 1.
double raw_message_rate(int rank, int messages) {
  constexpr int kWindow = 256;
  std::vector<double> runs;
  std::vector<std::uint64_t> buf(2 * kWindow);
  std::vector<MPI_Request> reqs(kWindow);
  for (int run = 0; run < kRuns; ++run) {
    sync_all(rank);
    auto t0 = clock_type::now();
    for (int done = 0; done < messages; done += kWindow) {
      for (int k = 0; k < kWindow; ++k) {
        if (rank == 0)
          MPI_Isend(&buf[2 * k], 16, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &reqs[k]);
        else
          MPI_Irecv(&buf[2 * k], 16, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &reqs[k]);
      }
      MPI_Waitall(kWindow, reqs.data(), MPI_STATUSES_IGNORE);
    }
    // The receiver's last receive ends the run for both.
    int token = 0;
    if (rank == 1)
      MPI_Send(&token, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    else
      MPI_Recv(&token, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    runs.push_back(messages / seconds_since(t0));
  }
  return median(runs);
}

/// Median bandwidth (GB/s) of a 32 MiB MPI_Send into a preallocated buffer,
/// acknowledged by a 4-byte reply (as a synchronous call is).
double raw_bandwidth(int rank, std::vector<double> &buf) {
  std::vector<double> runs;
  int ack = 0;
  for (int run = 0; run < kRuns; ++run) {
    sync_all(rank);
    auto t0 = clock_type::now();
    if (rank == 0) {
      MPI_Send(buf.data(), static_cast<int>(buf.size() * sizeof(double)), MPI_BYTE, 1, 3,
               MPI_COMM_WORLD);
      MPI_Recv(&ack, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf.data(), static_cast<int>(buf.size() * sizeof(double)), MPI_BYTE, 0, 3,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&ack, 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
    }
    runs.push_back(static_cast<double>(buf.size() * sizeof(double)) / seconds_since(t0) / 1e9);
  }
  return median(runs);
}

/// Time (ms) of MPI_Comm_spawn of one process running this program with
/// --spawned (which only connects and leaves). Rank 0 alone.
double raw_spawn(const char *self) {
  char arg[] = "--spawned";
  char *args[] = {arg, nullptr};
  MPI_Comm child;
  std::vector<int> errs(1);
  auto t0 = clock_type::now();
  int rc = MPI_Comm_spawn(self, args, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &child, errs.data());
  double ms = seconds_since(t0) * 1e3;
  if (rc != MPI_SUCCESS)
    return -1;
  MPI_Comm_disconnect(&child);
  return ms;
}

// ------------------------------------------------------------ poc side

struct Baselines {
  double pingpong_us = 0, rate = 0, bandwidth = 0, spawn_ms = -1;
};

int poc_main(const Baselines &b, int idle) {
  // Process on rank 1 (rank 0 runs main; placement prefers other ranks).
  Echo *e = poc::create<Echo>("bench", bench::Echo_interface::ctor_0);
  std::vector<Echo *> idlers;
  for (int i = 0; i < idle; ++i)
    idlers.push_back(poc::create<Echo>("bench", bench::Echo_interface::ctor_0));
  // Let the idle hosts settle into their sleeping back-off.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));

  // Sync call round trip.
  const int iters = 20000;
  std::vector<double> runs;
  int x = 0;
  for (int run = 0; run < kRuns; ++run) {
    auto t0 = clock_type::now();
    for (int i = 0; i < iters; ++i)
      x = Echo_client::inc_0(e, x);
    runs.push_back(seconds_since(t0) / iters * 1e6);
  }
  double rt = median(runs);
  if (idle) {
    row("sync call round trip, 6 idle processes (us)", rt, b.pingpong_us, "us", rt / b.pingpong_us);
    for (Echo *p : idlers)
      poc::destroy(p);
    poc::destroy(e);
    return 0;
  }
  row("sync call round trip, int arg/result (us)", rt, b.pingpong_us, "us", rt / b.pingpong_us);

  // Start throughput.
  const int calls = 200000;
  runs.clear();
  for (int run = 0; run < kRuns; ++run) {
    auto t0 = clock_type::now();
    for (int i = 0; i < calls; ++i)
      Echo_client::start_put_0(e, static_cast<std::uint64_t>(i), 1);
    poc::sync();
    runs.push_back(calls / seconds_since(t0));
  }
  double rate = median(runs);
  row("start throughput, void, 16-byte args (calls/s)", rate, b.rate, "1/s", rate / b.rate);

  // 32 MiB argument into a remote array (received straight into place).
  const std::size_t n = (std::size_t{32} << 20) / sizeof(double);
  std::vector<double> data(n, 1.0);
  double *arr = poc::create_array<double>("bench", n);
  poc::write(arr, 0, n, data.data()); // first touch of the server's pages
  runs.clear();
  for (int run = 0; run < kRuns; ++run) {
    auto t0 = clock_type::now();
    poc::write(arr, 0, n, data.data());
    runs.push_back(static_cast<double>(n * sizeof(double)) / seconds_since(t0) / 1e9);
  }
  double bw = median(runs);
  row("32 MiB argument (GB/s)", bw, b.bandwidth, "GB/s", bw / b.bandwidth);
  // The same as a std::vector<double> argument (the server allocates it).
  runs.clear();
  for (int run = 0; run < kRuns; ++run) {
    auto t0 = clock_type::now();
    Echo_client::size_of_0(e, data);
    runs.push_back(static_cast<double>(n * sizeof(double)) / seconds_since(t0) / 1e9);
  }
  double bwv = median(runs);
  row("32 MiB std::vector argument (GB/s)", bwv, b.bandwidth, "GB/s", bwv / b.bandwidth);
  poc::destroy_array(arr);

  // Creation where capacity exists.
  runs.clear();
  for (int i = 0; i < 200; ++i) {
    auto t0 = clock_type::now();
    Echo *c = poc::create<Echo>("bench", bench::Echo_interface::ctor_0);
    runs.push_back(seconds_since(t0) * 1e6);
    poc::destroy(c);
  }
  double create_us = median(runs);
  row("process creation (us) vs MPI_Comm_spawn", create_us, b.spawn_ms * 1e3, "us",
      b.spawn_ms > 0 ? create_us / (b.spawn_ms * 1e3) : 0.0);
  poc::destroy(e);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "--spawned") == 0) {
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL)
      MPI_Comm_disconnect(&parent);
    MPI_Finalize();
    return 0;
  }
  int idle = 0;
  bool spawn = true;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--idle") == 0 && i + 1 < argc)
      idle = std::atoi(argv[++i]);
    if (std::strcmp(argv[i], "--no-spawn") == 0)
      spawn = false;
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0)
      std::fprintf(stderr, "runtime_bench needs at least 2 ranks\n");
    MPI_Finalize();
    return 1;
  }
  Baselines b;
  if (rank < 2) {
    b.pingpong_us = raw_pingpong(rank, 20000);
    if (!idle) {
      b.rate = raw_message_rate(rank, 200000);
      std::vector<double> buf((std::size_t{32} << 20) / sizeof(double), 1.0);
      b.bandwidth = raw_bandwidth(rank, buf);
    }
  }
  // Idle ranks join the measurements' barriers from a sleeping wait.
  if (rank >= 2) {
    int barriers = kRuns * (idle ? 1 : 3);
    for (int i = 0; i < barriers; ++i)
      sync_all(rank);
  }
  if (rank == 0 && spawn && !idle)
    b.spawn_ms = raw_spawn(argv[0]);
  MPI_Barrier(MPI_COMM_WORLD);
  int rc = poc::run(argc, argv, [&](int, char **) { return poc_main(b, idle); });
  MPI_Finalize();
  return rc;
}
