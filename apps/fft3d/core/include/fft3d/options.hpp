//===- fft3d/options.hpp - Command line of the fft3d program ------*- C++ -*-===//
///
/// \file
/// Options: everything the fft3d command line can say, parsed and checked
/// before any process is created, so that a bad option is one clear message
/// and exit status 2, never a failure halfway through a run.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/page_map.hpp"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace fft3d {

/// A command line that cannot be run; what() is the message for the user.
class OptionError : public std::runtime_error {
public:
  explicit OptionError(const std::string &what) : std::runtime_error(what) {}
};

/// Which transforms a run computes.
enum class Direction { Forward, Inverse, RoundTrip };

/// A parsed and validated fft3d command line.
struct Options {
  std::array<int, 3> size{32, 32, 32};     ///< N1, N2, N3
  std::array<int, 3> page{8, 8, 8};        ///< n1, n2, n3
  int servers = 2;                         ///< S page servers
  int ffts = 2;                            ///< F FFT processes
  std::vector<std::string> serverMachines; ///< round robin; empty: any machine
  std::vector<std::string> fftMachines;
  bool inCore = true;    ///< memory devices; otherwise files in directory
  std::string directory; ///< out-of-core: where the page files go
  bool directIO = true;  ///< O_DIRECT for out-of-core files
  /// Out-of-core: the run's name, the prefix of the addresses of its
  /// persistent processes in the object store ("<run>/PageDevice/<s>",
  /// "<run>/progress").
  std::string run = "fft3d";
  bool resume = false; ///< continue the out-of-core run named run
  /// Out-of-core: lines an FFT process completes between two durable
  /// progress records (at most this many are redone after a kill).
  int recordEvery = 32;
  /// For tests of restarts: each FFT process halts after this many durable
  /// progress records of the job (0: never), so that a test kills the job
  /// at a point it controls instead of after a guessed delay.
  int haltAfterRecords = 0;
  bool keep = false; ///< leave the finished run in the store
  /// Passes over the array per transform (transformPasses): 3, the
  /// paper's, or 2 (2D FFTs of page planes, then fft1; in core only). 0
  /// until parsed: then 2 in core when every FFT process gets a page plane,
  /// else 3.
  int passes = 0;
  bool prefetch = true;         ///< server-side ReadIntoServerCache
  bool clientTranspose = false; ///< transpose pages in the FFT processes, not the servers
  /// How pages are spread over the servers (pocstd::PageMap).
  pocstd::PageLayout pageMap = pocstd::PageLayout::Slabs;
  Direction direction = Direction::Forward;
  bool verify = false;    ///< compare with FFTW in-core
  bool measure = false;   ///< FFTW_MEASURE instead of FFTW_ESTIMATE
  bool progress = true;   ///< a line per iteration
  std::uint64_t seed = 1; ///< input data
  std::string csv;        ///< per-iteration timings go here when set
  bool help = false;

  /// Number of pages along dimension \p d.
  int pages(int d) const { return (size[d] + page[d] - 1) / page[d]; }
};

/// Parses argv[1..argc). Throws OptionError naming the offending option.
Options parseOptions(int argc, const char *const *argv);
/// The --help text.
std::string usage();

} // namespace fft3d
