#pragma once
/// \file
/// What every benchmark program of bench/ shares: timing, medians, the
/// RESULT rows the run scripts parse, the raw MPI_Comm_spawn baseline and
/// the CPU share of idle processes. Header-only; include it as
/// "../common/bench_report.hpp".

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace bench {

using clock_type = std::chrono::steady_clock;

/// Seconds since `t0`.
inline double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

/// The median of `v` (the upper one for an even count).
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Prints one result row (parsed by the run scripts): name, measured,
/// baseline, unit, ratio.
inline void row(const std::string &name, double value, double base, const char *unit) {
  fmt::print("RESULT|{}|{:.3f}|{:.3f}|{}|{:.2f}\n", name, value, base, unit, value / base);
  std::fflush(stdout);
}

/// The argument that makes a benchmark program the trivial child of
/// raw_spawn_ms.
inline constexpr const char *kRawChildFlag = "--raw-child";

/// If `argv` asks for the raw spawn child (kRawChildFlag), runs it - MPI_Init,
/// disconnect from the parent, MPI_Finalize - and returns true; the program
/// then exits. Call first in main.
inline bool run_raw_child(int argc, char **argv) {
  if (argc < 2 || std::string(argv[1]) != kRawChildFlag)
    return false;
  MPI_Init(&argc, &argv);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL)
    MPI_Comm_disconnect(&parent);
  MPI_Finalize();
  return true;
}

/// Milliseconds of one MPI_Comm_spawn of the program `self` as the raw child
/// (run_raw_child), or -1 if the spawn failed: the floor under any runtime
/// spawn.
inline double raw_spawn_ms(const char *self) {
  std::string arg = kRawChildFlag;
  char *args[] = {arg.data(), nullptr};
  MPI_Comm child;
  auto t0 = clock_type::now();
  int rc =
      MPI_Comm_spawn(self, args, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &child, MPI_ERRCODES_IGNORE);
  double ms = seconds_since(t0) * 1e3;
  if (rc != MPI_SUCCESS)
    return -1;
  MPI_Comm_disconnect(&child);
  return ms;
}

/// The CPU the processes `ps` use together over `wait_s` seconds of
/// nothing, in % of one core; `cpu_seconds(p)` is p's CPU time so far (a
/// remote call).
template <class P, class CpuSeconds>
double idle_cpu_percent(const std::vector<P *> &ps, CpuSeconds cpu_seconds, double wait_s) {
  std::vector<double> before;
  for (P *p : ps)
    before.push_back(cpu_seconds(p));
  std::this_thread::sleep_for(std::chrono::duration<double>(wait_s));
  double used = 0;
  for (std::size_t i = 0; i < ps.size(); ++i)
    used += cpu_seconds(ps[i]) - before[i];
  return 100.0 * used / wait_s;
}

} // namespace bench
