//===- fft3.hpp - The FFT processes of the paper, section 4.2 -----*- C++ -*-===//
///
/// \file
/// An FFT3 process owns a slab of page lines of an Array and transforms them
/// along each dimension in turn, in step with the other members of its
/// group. Process-oriented C++: created with `new(machine) FFT3(...)`.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "fft3d/line_transform.hpp"
#include "fft3d/phase_times.hpp"
#include "fft3d/run_progress.hpp"
#include "pocstd/array.hpp"

#include <poc/poc.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

/// How the group runs, beyond the paper's sign and array.
struct FFT3Settings {
  bool prefetch = true;   ///< server-side prefetch of the next line
  bool measure = false;   ///< FFTW_MEASURE plans
  bool progress = true;   ///< member 0 prints a line per iteration
  bool normalize = false; ///< divide by N1*N2*N3 (for the inverse)
  int passes = 3;         ///< passes per transform (fft3d::transformPasses)
  std::uint64_t seed = 1; ///< input data (Initialize)
  /// Lines between two durable progress records (when there is a progress
  /// process).
  int recordEvery = 32;
  /// Records after which the member halts until it is killed (0: never);
  /// see fft3d::Options::haltAfterRecords.
  int haltAfterRecords = 0;
};

class FFT3 : public poc::ProcessGroupMember {
public:
  /// A member transforming \p a with exponent sign \p sign (-1 forward,
  /// +1 inverse). The process keeps its own copy of the Array description.
  /// With a \p progress process (out-of-core runs; null otherwise) the
  /// member records there how far it has got, after making its lines
  /// durable.
  FFT3(int sign, pocstd::Array *a, FFT3Settings settings, fft3d::RunProgress *progress);

  /// Writes the generated input into this member's slab.
  void Initialize();
  /// The 3D transform: fft1, fft2 and fft3 (or, in two passes, the 2D FFTs
  /// of the page planes, then fft1), each over all page lines (planes) of
  /// the group's slabs, one line per iteration, barrier after each.
  /// \p transform counts the transforms of the run (the inverse of a round
  /// trip is 1); a resumed run starts at pass \p firstPass, member p at its
  /// line \p firstLine[p] there (empty: every member at line 0).
  void ComputeTransform(int transform, int firstPass, std::vector<int> firstLine);
  /// Per-pass timings of this member's last ComputeTransform.
  std::vector<fft3d::PassTimes> Times() const { return times; }
  /// Per-iteration timings of the whole group (kept by member 0).
  std::vector<fft3d::IterationTime> Iterations() const { return iterations; }

private:
  /// Pass \p pass (an index into passes) of transform \p transform.
  void ComputePass(int transform, int pass, const std::vector<int> &firstLine);
  /// Makes this member's writes so far durable, then records \p next as its
  /// position and checkpoints the progress process; nothing without one.
  void RecordProgress(fft3d::LinePosition next, fft3d::PassTimes &t);

  int sign;
  pocstd::Array a;
  FFT3Settings settings;
  fft3d::RunProgress *progress;
  /// The transform's passes, in order (fft3d::transformPasses).
  std::vector<int> passes;
  std::unique_ptr<fft3d::LineTransform> lines;
  std::vector<fft3d::PassTimes> times;
  std::vector<fft3d::IterationTime> iterations;
  /// Durable progress records this member made in this job.
  int records = 0;
};
