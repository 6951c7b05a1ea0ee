//===- fft3d/phase_times.hpp - Timings of an FFT pass -------------*- C++ -*-===//
///
/// \file
/// What an FFT process measures in a pass, and the report lines in the
/// format of the paper's section 5.3:
///   "15: Array::read 11520-11647 x 2432-2559 x 0-16383:: 4 GB, 17.36 sec, 235.9 MB/sec"
/// (MB and GB there are binary units, 2^20 and 2^30 bytes; so here.)
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/device_stats.hpp"
#include "pocstd/domain.hpp"
#include "pocstd/transfer_stats.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace fft3d {

/// One FFT process's seconds per phase in one pass, summed over its lines.
struct PassTimes {
  int process = 0;         ///< the process's ID() in its group
  int dim = 0;             ///< 0, 1, 2: the pass along dimension dim + 1; 3: kPlanes23
  pocstd::Domain slab;     ///< bounding box of its lines
  int lines = 0;           ///< lines it transformed
  std::uint64_t bytes = 0; ///< bytes of those lines (each read and written once)
  double read = 0;         ///< Array::read (or a transposing read)
  double cache = 0;        ///< Array::ReadIntoServerCache (the started requests)
  double fftw = 0;         ///< FFTW execution, with the inverse's scaling
  double write = 0;        ///< Array::write and the completion of its started calls
  double barrier = 0;      ///< waiting for the group at the end of each iteration
  /// Out-of-core runs: making the lines durable and recording the progress
  /// (Array::Flush, then RunProgress::Record and its checkpoint).
  double record = 0;
  int records = 0;  ///< progress records made
  double total = 0; ///< the whole pass
  /// What the process's Array moved in the pass, and its time copying and
  /// waiting for remote calls (inside read and write).
  pocstd::TransferStats moved;
  /// Process 0 only: the page servers' seconds in their medium (disk, or
  /// memory for memory servers that are called) during the pass, summed
  /// over the servers.
  double medium = 0;
};

/// One iteration of a pass as seen by process 0: the per-iteration progress.
struct IterationTime {
  int dim = 0;
  int iteration = 0;
  std::uint64_t bytes = 0; ///< bytes of all processes' lines in the iteration
  double seconds = 0;      ///< from the start of the iteration to the barrier
};

/// The pass's name: fft1, fft2 or fft3 (along one dimension), fft23 (the
/// page planes' 2D FFTs, kPlanes23).
std::string passName(int dim);
/// What the pass computes: "1D FFTs along dimension 2", ...
std::string passTitle(int dim);
/// The progress line of one iteration.
std::string progressLine(const IterationTime &t, int iterations);
/// The paper's four lines (read, ReadIntoServerCache, fftw, write) for \p t.
std::string processReport(const PassTimes &t);
/// Memory copies per byte of \p t's lines (each read and written once):
/// 2 when every page is local, 8 when every page travels.
double copiesPerByte(const pocstd::TransferStats &t, std::uint64_t bytes);
/// One line for the pass of all the processes in \p pass: bytes moved,
/// copies per byte of the array (\p arrayBytes) and where the time went.
std::string passSummary(const std::vector<PassTimes> &pass, double arrayBytes);
/// The paper's server lines (ReadIntoCache, read, write) for server \p s.
std::string serverReport(int s, const pocstd::DeviceStats &stats);
/// "<n> MB" / "<n> GB" in binary units.
std::string formatBytes(double bytes);
/// MB/sec in binary units, "-" when \p seconds is 0.
std::string formatRate(double bytes, double seconds);

} // namespace fft3d
