//===- local_bench.cpp - The page-line algorithm in one process -----------===//
///
/// What the decomposition itself costs, with no processes and no messages:
/// the same per-line code the FFT3 processes run (fft3d::runLine), for F
/// simulated processes in turn over S local memory page servers, against
/// FFTW's single-process in-core 3D transform (fftw_plan_dft_3d) of the same
/// array, measured in the same run.
///
/// usage: local_bench N PAGE [F] [S] [server|client] [estimate|measure] [2|3]
/// (the last: passes per transform, fft3d::transformPasses; default 3)
/// prints: "local N^3 pages n^3: fft3d-local T sec, fftw-3d T sec, ratio R"
///
//===----------------------------------------------------------------------===//

#include "fft3d/reference.hpp"
#include "fft3d/run_line.hpp"

#include <fftw3.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

using pocstd::Domain;

namespace {
double seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    fmt::print(stderr,
               "usage: local_bench N PAGE [F] [S] [server|client] [estimate|measure] [2|3]\n");
    return 2;
  }
  int n = std::atoi(argv[1]), page = std::atoi(argv[2]);
  int F = argc > 3 ? std::atoi(argv[3]) : 2, S = argc > 4 ? std::atoi(argv[4]) : 2;
  bool client = argc > 5 && std::string(argv[5]) == "client";
  bool measure = argc > 6 && std::string(argv[6]) == "measure";
  int passCount = argc > 7 ? std::atoi(argv[7]) : 3;
  if (n <= 0 || page <= 0 || page > n || F <= 0 || S <= 0 || (passCount != 2 && passCount != 3)) {
    fmt::print(stderr, "local_bench: need 0 < PAGE <= N, F > 0, S > 0, 2 or 3 passes\n");
    return 2;
  }
  int np = (n + page - 1) / page;
  pocstd::PageMap map(np, np, np, S);
  std::vector<std::unique_ptr<pocstd::ArrayDevice>> devices;
  std::vector<pocstd::ArrayDevice *> refs;
  for (int s = 0; s < S; ++s) {
    devices.push_back(std::make_unique<pocstd::ArrayDevice>(
        pocstd::Storage::memory(), std::max<std::size_t>(1, map.PagesOnServer(s)), page, page, page,
        0));
    refs.push_back(devices.back().get());
  }
  pocstd::Array a(Domain::box(n, n, n), Domain::box(page, page, page), refs, map);
  if (client)
    a.SetTransposeSite(pocstd::TransposeSite::Client);
  std::vector<int> passes = fft3d::transformPasses(passCount);
  std::vector<std::unique_ptr<fft3d::LineTransform>> lines;
  for (int p = 0; p < F; ++p)
    lines.push_back(std::make_unique<fft3d::LineTransform>(
        a.ArrayDomain(), a.PageDomain(), passes, std::vector<int>{fft3d::kForward}, measure));
  fft3d::PassSchedule slabs(a.ArrayDomain(), a.PageDomain(), 2, F);
  for (int p = 0; p < F; ++p)
    fft3d::writeInput(a, *lines[p], slabs, p, 1);

  auto t0 = std::chrono::steady_clock::now();
  for (int dim : passes) {
    fft3d::PassSchedule schedule(a.ArrayDomain(), a.PageDomain(), dim, F);
    fft3d::LineJob job;
    job.prefetch = false;
    fft3d::PassTimes t;
    for (int i = 0; i < schedule.iterations(); ++i)
      for (int p = 0; p < F; ++p)
        fft3d::runLine(a, *lines[p], schedule, p, i, job, t);
  }
  double local = seconds(t0);

  std::vector<std::complex<double>> data = fft3d::makeInput(1, {n, n, n});
  auto *d = reinterpret_cast<fftw_complex *>(data.data());
  fftw_plan plan =
      fftw_plan_dft_3d(n, n, n, d, d, FFTW_FORWARD, measure ? FFTW_MEASURE : FFTW_ESTIMATE);
  // MEASURE planning overwrites the array; refill it in place (the plan is
  // bound to this buffer).
  std::vector<std::complex<double>> input = fft3d::makeInput(1, {n, n, n});
  std::copy(input.begin(), input.end(), data.begin());
  t0 = std::chrono::steady_clock::now();
  fftw_execute(plan);
  double reference = seconds(t0);
  fftw_destroy_plan(plan);
  fmt::print("local {}^3 pages {}^3, F {}, S {}, {} transposes, {} passes: fft3d-local {:.4g} "
             "sec, fftw-3d {:.4g} sec, ratio {:.2f}\n",
             n, page, F, S, client ? "client" : "server", passCount, local, reference,
             local / reference);
  return 0;
}
