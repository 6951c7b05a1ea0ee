//===- fft3d/progress.hpp - Where a restartable run has got to ----*- C++ -*-===//
///
/// \file
/// An out-of-core run is restartable at line granularity: every FFT process
/// records, in a persistent RunProgress process, the first of its lines it
/// has not completed, where "completed" means the line's pages are written
/// and durable. A restarted run continues each process from its own next
/// line (resumeFrom). Redoing a line is harmless because each pass reads one
/// copy of the pages and writes the other (pocstd::Array page sets), so a
/// line's input is intact until its whole pass is complete.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "fft3d/options.hpp"

#include <array>
#include <compare>
#include <string>
#include <vector>

namespace poc {
class Writer;
class Reader;
} // namespace poc

namespace fft3d {

/// A place in a run: line (the process's iteration) \p line of pass \p pass
/// of transform \p transform. As a process's progress it names the first
/// line the process has not completed; {transforms, 0, 0} means finished.
struct LinePosition {
  int transform = 0; ///< 0: the first transform, 1: the inverse of a round trip
  int pass = 0;      ///< 0, 1, 2: fft1, fft2, fft3
  int line = 0;      ///< iteration within the pass

  friend auto operator<=>(const LinePosition &, const LinePosition &) = default;
  void poc_write(poc::Writer &w) const;
  void poc_read(poc::Reader &r);
};

/// The first line of the pass after (\p transform, \p pass).
LinePosition nextPass(int transform, int pass);

/// Where a restarted run continues: the earliest pass any process has not
/// completed, and per process the first line to do in it.
struct ResumePoint {
  int transform = 0;
  int pass = 0;
  /// Per process; a process that already finished this pass gets the pass's
  /// iteration count (nothing left to do, it only joins the barriers).
  std::vector<int> firstLine;
  /// The pass's iteration count.
  int iterations = 0;

  /// The earliest first line: where the group's iterations (and barriers)
  /// start.
  int firstIteration() const;
};

/// The resume point of processes at \p positions, in a run whose passes
/// have \p iterations[d] iterations. Throws std::runtime_error if the
/// positions cannot come from one run: processes are never more than one
/// pass apart, and one ahead can only be at the start of its pass (the pass
/// ends with a barrier that waits for every process's record).
ResumePoint resumeFrom(const std::vector<LinePosition> &positions,
                       const std::array<int, 3> &iterations);

/// "transform 1, fft2, line 5": a position for messages.
std::string describe(const LinePosition &p);

/// The parameters a resumed run must share with the one it continues.
std::string runFingerprint(const Options &o);

} // namespace fft3d
