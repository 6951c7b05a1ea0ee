//===- fft3d/line_transform.hpp - FFTs of one page line -----------*- C++ -*-===//
///
/// \file
/// LineTransform: an FFT process's page-line buffer and its FFTW plans
/// (planned once, executed for every line, FFTW's intended use). A line
/// along dimension d is read so that d is the fastest-varying buffer index:
/// plainly for d = 3, with Array::read_transpose13 for d = 1 and
/// read_transpose23 for d = 2 (paper section 4.2); one FFTW call then
/// transforms all its rows, and the line is written back the same way. A
/// page plane of the two-pass transform (kPlanes23) is read plainly, e1 x N2
/// x N3, and FFTW's 2D plan transforms its e1 planes one after another.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/array.hpp"

#include <complex>
#include <vector>

namespace fft3d {

/// Sign of the exponent: FFTW_FORWARD (-1) or FFTW_BACKWARD (+1).
constexpr int kForward = -1;
constexpr int kBackward = +1;

/// A line buffer with FFTW plans for every pass and each requested sign.
class LineTransform {
public:
  /// Allocates the buffer for the longest line of \p array in pages of
  /// \p page among the \p passes (see transformPasses) and the lines the
  /// input is written in, and plans a transform per pass and per sign in
  /// \p signs (FFTW_MEASURE when \p measure, else FFTW_ESTIMATE). Planning
  /// is serialised process-wide: FFTW's planner is not thread-safe, and
  /// several FFT processes may share one host.
  LineTransform(const pocstd::Domain &array, const pocstd::Domain &page,
                const std::vector<int> &passes, const std::vector<int> &signs, bool measure);
  ~LineTransform();
  LineTransform(const LineTransform &) = delete;
  LineTransform &operator=(const LineTransform &) = delete;

  /// Reads \p line (a page line along \p dim, or a page plane for
  /// kPlanes23) from \p a into the buffer.
  void read(pocstd::Array &a, int dim, const pocstd::Domain &line);
  /// Transforms the buffered line along \p dim with \p sign, multiplying the
  /// result by \p scale (1: none).
  void transform(int dim, const pocstd::Domain &line, int sign, double scale);
  /// Writes the buffered line back to \p a.
  void write(pocstd::Array &a, int dim, const pocstd::Domain &line);
  /// Fills the buffer as read(a, 2, line) would find the generated input.
  void fillInput(std::uint64_t seed, const pocstd::Domain &line);

  std::complex<double> *buffer() { return buffer_; }

private:
  struct Plan {
    int dim;
    int sign;
    void *plan; ///< fftw_plan, kept opaque so that users need no <fftw3.h>
  };
  void *planFor(int dim, int sign) const;

  pocstd::Domain array_;
  pocstd::Domain page_;
  std::complex<double> *buffer_ = nullptr;
  std::vector<Plan> plans_;
};

} // namespace fft3d
