//===- fft3d/progress.hpp - Where a restartable run has got to ----*- C++ -*-===//
///
/// \file
/// An out-of-core run records, after every completed iteration, the first
/// step it has not completed; a run started with --resume continues there.
/// This is safe because each pass reads one copy of the pages and writes the
/// other (pocstd::Array page sets): an iteration cut short by a kill is simply
/// done again from intact input. The record names the run's parameters, so a
/// resume with different ones is refused instead of mixing two computations.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "fft3d/options.hpp"

#include <optional>
#include <string>

namespace fft3d {

/// The first step not yet completed.
struct Progress {
  bool initialized = false; ///< the input has been written
  int transform = 0;        ///< 0: first transform, 1: the inverse of a round trip
  int pass = 0;             ///< 0, 1, 2: fft1, fft2, fft3
  int iteration = 0;        ///< within the pass

  friend bool operator==(const Progress&, const Progress&) = default;
};

/// \p p after one more completed iteration of a pass of \p iterations.
Progress advance(Progress p, int iterations);

/// The parameters a resumed run must share with the one it continues.
std::string runFingerprint(const Options& o);

/// The progress record of a run, one small file updated atomically
/// (temporary file, fsync, rename, fsync of the directory).
class ProgressFile {
public:
  ProgressFile() = default;
  ProgressFile(std::string path, std::string fingerprint)
      : path_(std::move(path)), fingerprint_(std::move(fingerprint)) {}

  /// The recorded progress, none if there is no record. Throws
  /// std::runtime_error naming the file if it is unreadable, malformed or
  /// belongs to a run with other parameters.
  std::optional<Progress> load() const;
  /// Records \p p; throws std::system_error naming the file on failure.
  void save(const Progress& p) const;
  /// Deletes the record (the run has finished).
  void remove() const;
  bool enabled() const { return !path_.empty(); }
  const std::string& path() const { return path_; }
  const std::string& fingerprint() const { return fingerprint_; }

private:
  std::string path_;
  std::string fingerprint_;
};

} // namespace fft3d
