//===- run_line.cpp - One iteration of an FFT process ---------------------===//

#include "fft3d/run_line.hpp"

#include <chrono>

namespace fft3d {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}
std::uint64_t lineBytes(const pocstd::Domain &d) {
  return static_cast<std::uint64_t>(d.size()) * sizeof(std::complex<double>);
}
} // namespace

std::uint64_t runLine(pocstd::Array &a, LineTransform &lines, const PassSchedule &schedule, int p,
                      int i, const LineJob &job, PassTimes &t) {
  std::optional<pocstd::Domain> line = schedule.line(p, i);
  if (!line)
    return 0;
  int dim = schedule.dim();
  auto t0 = Clock::now();
  lines.read(a, dim, *line);
  t.read += since(t0);
  if (job.prefetch) {
    if (std::optional<pocstd::Domain> next = schedule.line(p, i + 1)) {
      t0 = Clock::now();
      a.ReadIntoServerCache(*next);
      t.cache += since(t0);
    }
  }
  t0 = Clock::now();
  lines.transform(dim, *line, job.sign, job.scale);
  t.fftw += since(t0);
  t0 = Clock::now();
  lines.write(a, dim, *line);
  t.write += since(t0);
  t.lines += 1;
  t.bytes += lineBytes(*line);
  return lineBytes(*line);
}

void writeInput(pocstd::Array &a, LineTransform &lines, const PassSchedule &schedule, int p,
                std::uint64_t seed) {
  for (int i = 0; i < schedule.iterations(); ++i)
    if (std::optional<pocstd::Domain> line = schedule.line(p, i)) {
      lines.fillInput(seed, *line);
      a.write(*line, lines.buffer());
    }
}

std::uint64_t iterationBytes(const PassSchedule &schedule, int processes, int i) {
  std::uint64_t bytes = 0;
  for (int p = 0; p < processes; ++p)
    if (std::optional<pocstd::Domain> line = schedule.line(p, i))
      bytes += lineBytes(*line);
  return bytes;
}

} // namespace fft3d
