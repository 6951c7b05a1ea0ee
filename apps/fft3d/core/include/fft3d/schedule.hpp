//===- fft3d/schedule.hpp - Page lines per FFT process ------------*- C++ -*-===//
///
/// \file
/// PassSchedule: the work of one pass (the 1D FFTs along one dimension) as
/// page lines, split among F processes. A page line along dimension d is the
/// set of pages that differ only in their index along d; the lines form a
/// 2D grid over the other two dimensions, which is cut into F contiguous
/// ranges in row-major order, i.e. into slabs along the lower of the other two
/// dimensions (dimension 1 for the passes along 2 and 3, as in paper 4.2).
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/domain.hpp"

#include <optional>
#include <vector>

namespace fft3d {

/// The pass of 2D FFTs over dimensions 2 and 3, a page plane at a time (the
/// passes along one dimension are 0, 1, 2).
constexpr int kPlanes23 = 3;

/// The passes of a 3D transform in \p passes passes, in order: 3 is the
/// paper's fft1, fft2, fft3 ({0, 1, 2}); 2 is the 2D FFTs of page planes,
/// then fft1 ({kPlanes23, 0}). Throws std::invalid_argument otherwise.
std::vector<int> transformPasses(int passes);

/// Which page lines process p handles in iteration i of a pass.
class PassSchedule {
public:
  /// The pass along dimension \p dim (0, 1 or 2), or the pass of page
  /// planes (kPlanes23), of \p array in pages of \p page, for \p processes
  /// processes.
  PassSchedule(const pocstd::Domain &array, const pocstd::Domain &page, int dim, int processes);

  /// Iterations every process runs (the most lines any process has); a
  /// process with fewer lines still takes part in each iteration's barrier.
  int iterations() const { return iterations_; }
  /// Total number of page lines.
  long long lines() const { return lines_; }
  /// The domain of process \p p's line in iteration \p i, none when the
  /// process has no line left.
  std::optional<pocstd::Domain> line(int p, int i) const;
  /// The bounding box of all of process \p p's lines (its slab).
  pocstd::Domain slab(int p) const;
  int dim() const { return dim_; }

private:
  long long first(int p) const;
  pocstd::Domain lineDomain(long long k) const;

  pocstd::Domain array_;
  pocstd::Domain page_;
  int dim_;
  int processes_;
  int a_; ///< the slower of the two other dimensions (the only one for kPlanes23)
  int b_; ///< the faster one; -1 for kPlanes23
  long long pagesB_;
  long long lines_;
  int iterations_;
};

} // namespace fft3d
