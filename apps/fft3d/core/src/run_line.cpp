//===- run_line.cpp - One iteration of an FFT process ---------------------===//

#include "fft3d/run_line.hpp"

#include <chrono>
#include <vector>

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
  // A page plane whose pages all lie in this host's memory is done a plane
  // at a time: each plane's copy in, 2D FFT and copy out then run in the
  // caches, one pass through memory instead of three. (Remote pages would
  // travel once per plane; a partial page written to another page set would
  // first be copied whole.)
  std::vector<pocstd::Domain> parts{*line};
  if (dim == kPlanes23 && a.ReadSet() == a.WriteSet() && a.SharesPagesOf(*line)) {
    parts.clear();
    for (std::int64_t x = line->lo[0]; x < line->hi[0]; ++x) {
      pocstd::Domain plane = *line;
      plane.lo[0] = x;
      plane.hi[0] = x + 1;
      parts.push_back(plane);
    }
  }
  for (std::size_t k = 0; k < parts.size(); ++k) {
    auto t0 = Clock::now();
    lines.read(a, dim, parts[k]);
    t.read += since(t0);
    if (job.prefetch && k == 0) {
      if (std::optional<pocstd::Domain> next = schedule.line(p, i + 1)) {
        t0 = Clock::now();
        a.ReadIntoServerCache(*next);
        t.cache += since(t0);
      }
    }
    t0 = Clock::now();
    lines.transform(dim, parts[k], job.sign, job.scale);
    t.fftw += since(t0);
    t0 = Clock::now();
    lines.write(a, dim, parts[k]);
    t.write += since(t0);
  }
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
