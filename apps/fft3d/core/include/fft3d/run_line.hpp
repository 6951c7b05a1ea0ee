//===- fft3d/run_line.hpp - One iteration of an FFT process -------*- C++ -*-===//
///
/// \file
/// The body of the paper's ComputeTransform loop (section 4.3) for one page
/// line: read the line, ask the servers to prefetch the next one, FFT, write.
/// FFT3 runs it once per iteration between barriers; the in-process tests run
/// it for every process in turn with local page servers.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "fft3d/line_transform.hpp"
#include "fft3d/phase_times.hpp"
#include "fft3d/schedule.hpp"

namespace fft3d {

/// How a pass transforms its lines.
struct LineJob {
  int sign = kForward;
  double scale = 1.0;   ///< applied after the FFT (1/N for a normalised inverse)
  bool prefetch = true; ///< start ReadIntoServerCache for the next line
};

/// Runs iteration \p i of \p schedule for process \p p (nothing if it has no
/// line there), adding the time of each phase to \p t. Returns the bytes of
/// the line it transformed (0 if none).
std::uint64_t runLine(pocstd::Array &a, LineTransform &lines, const PassSchedule &schedule, int p,
                      int i, const LineJob &job, PassTimes &t);

/// Writes the generated input into process \p p's lines of \p schedule.
void writeInput(pocstd::Array &a, LineTransform &lines, const PassSchedule &schedule, int p,
                std::uint64_t seed);

/// Bytes of all processes' lines in iteration \p i of \p schedule.
std::uint64_t iterationBytes(const PassSchedule &schedule, int processes, int i);

} // namespace fft3d
