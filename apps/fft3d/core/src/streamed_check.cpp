//===- streamed_check.cpp - Checks of arrays larger than memory -----------===//

#include "fft3d/streamed_check.hpp"

#include "fft3d/input.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <vector>

namespace fft3d {

namespace {
using Element = std::complex<double>;

/// Calls \p visit(stored, input, count) for every column of pages of
/// \p array (all of dimension 3, one page along dimensions 1 and 2): the
/// array's values there and the generated input's.
void forEachColumn(
    pocstd::Array &array, std::uint64_t seed,
    const std::function<void(const Element *, const Element *, std::size_t)> &visit) {
  const pocstd::Domain &all = array.ArrayDomain();
  const pocstd::Domain &page = array.PageDomain();
  std::vector<Element> stored, input;
  for (std::int64_t lo1 = 0; lo1 < all.hi[0]; lo1 += page.extent(0))
    for (std::int64_t lo2 = 0; lo2 < all.hi[1]; lo2 += page.extent(1)) {
      pocstd::Domain column(lo1, std::min(lo1 + page.extent(0), all.hi[0]), lo2,
                            std::min(lo2 + page.extent(1), all.hi[1]), 0, all.hi[2]);
      std::size_t count = static_cast<std::size_t>(column.size());
      stored.resize(count);
      input.resize(count);
      array.read(column, stored.data());
      fillInput(seed, all, column, input.data());
      visit(stored.data(), input.data(), count);
    }
}
} // namespace

double roundTripError(pocstd::Array &array, std::uint64_t seed) {
  double worst = 0, scale = 0;
  forEachColumn(array, seed, [&](const Element *x, const Element *in, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      worst = std::max(worst, std::abs(x[i] - in[i]));
      scale = std::max(scale, std::abs(in[i]));
    }
  });
  return scale > 0 ? worst / scale : worst;
}

double energyError(pocstd::Array &array, std::uint64_t seed, double scale) {
  // Column sums first, then the total: the rounding of a sum of 2^30 terms
  // stays far below the tolerance this way.
  double stored = 0, input = 0;
  forEachColumn(array, seed, [&](const Element *x, const Element *in, std::size_t n) {
    double s = 0, t = 0;
    for (std::size_t i = 0; i < n; ++i) {
      s += std::norm(x[i]);
      t += std::norm(in[i]);
    }
    stored += s;
    input += t;
  });
  double expected = scale * input;
  return expected > 0 ? std::abs(stored - expected) / expected : std::abs(stored);
}

} // namespace fft3d
