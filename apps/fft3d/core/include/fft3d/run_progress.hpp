//===- fft3d/run_progress.hpp - The persistent progress of a run --*- C++ -*-===//
///
/// \file
/// RunProgress: the progress record of an out-of-core run, kept as a
/// persistent process at "<run>/progress" (created with
/// new (poc::persistent_at(...)) on the first run, found with poc::persistent
/// on a restart). Each FFT process records its own position after the
/// lines before it are durable, then checkpoints the process, so the stored
/// record never runs ahead of the pages.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "fft3d/progress.hpp"

#include <poc/annotations.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace fft3d {

/// The input is written, and where each FFT process has got to.
class POC_REMOTE RunProgress {
public:
  /// No run (what the saved state is loaded into).
  RunProgress() = default;
  /// A run with parameters \p fingerprint and \p members FFT processes, all
  /// at the start. Throws std::invalid_argument for a non-positive count.
  RunProgress(std::string fingerprint, int members);

  std::string Fingerprint() const { return fingerprint_; }
  /// True once the input is written and durable.
  bool Initialized() const { return initialized_; }
  void MarkInitialized() { initialized_ = true; }
  /// Records that process \p member has completed every line before
  /// \p next. Throws std::out_of_range for an unknown member and
  /// std::logic_error if \p next is before what is recorded (progress never
  /// goes back).
  void Record(int member, LinePosition next);
  /// Every member's position, by member.
  std::vector<LinePosition> Positions() const { return positions_; }

  void poc_write(poc::Writer &w) const;
  /// Throws poc::decode_error for an empty run or a negative position.
  void poc_read(poc::Reader &r);

private:
  std::string fingerprint_;
  bool initialized_ = false;
  std::vector<LinePosition> positions_;
};

} // namespace fft3d
