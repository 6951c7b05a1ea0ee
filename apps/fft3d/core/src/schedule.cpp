//===- schedule.cpp - Page lines per FFT process --------------------------===//

#include "fft3d/schedule.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fft3d {

namespace {
long long pagesAlong(const pocstd::Domain &array, const pocstd::Domain &page, int d) {
  return (array.extent(d) + page.extent(d) - 1) / page.extent(d);
}
} // namespace

std::vector<int> transformPasses(int passes) {
  if (passes == 3)
    return {0, 1, 2};
  if (passes == 2)
    return {kPlanes23, 0};
  throw std::invalid_argument("fft3d: a transform has 2 or 3 passes, not " +
                              std::to_string(passes));
}

PassSchedule::PassSchedule(const pocstd::Domain &array, const pocstd::Domain &page, int dim,
                           int processes)
    : array_(array), page_(page), dim_(dim), processes_(processes) {
  if (dim < 0 || dim > kPlanes23 || processes <= 0)
    throw std::invalid_argument("PassSchedule: bad dimension " + std::to_string(dim) +
                                " or process count " + std::to_string(processes));
  a_ = dim == 0 ? 1 : 0;
  b_ = dim == kPlanes23 ? -1 : dim == 2 ? 1 : 2;
  pagesB_ = b_ < 0 ? 1 : pagesAlong(array, page, b_);
  lines_ = pagesAlong(array, page, a_) * pagesB_;
  long long most = 0;
  for (int p = 0; p < processes; ++p)
    most = std::max(most, first(p + 1) - first(p));
  iterations_ = static_cast<int>(most);
}

long long PassSchedule::first(int p) const { return lines_ * p / processes_; }

pocstd::Domain PassSchedule::lineDomain(long long k) const {
  // The whole array along the transformed dimensions, one page along the
  // others.
  pocstd::Domain d = array_;
  long long ia = k / pagesB_, ib = k % pagesB_;
  d.lo[a_] = ia * page_.extent(a_);
  d.hi[a_] = std::min(d.lo[a_] + page_.extent(a_), array_.extent(a_));
  if (b_ >= 0) {
    d.lo[b_] = ib * page_.extent(b_);
    d.hi[b_] = std::min(d.lo[b_] + page_.extent(b_), array_.extent(b_));
  }
  return d;
}

std::optional<pocstd::Domain> PassSchedule::line(int p, int i) const {
  long long k = first(p) + i;
  if (i < 0 || k >= first(p + 1))
    return std::nullopt;
  return lineDomain(k);
}

pocstd::Domain PassSchedule::slab(int p) const {
  long long begin = first(p), end = first(p + 1);
  if (begin == end)
    return pocstd::Domain();
  pocstd::Domain box = lineDomain(begin);
  for (long long k = begin + 1; k < end; ++k) {
    pocstd::Domain d = lineDomain(k);
    for (int e = 0; e < 3; ++e) {
      box.lo[e] = std::min(box.lo[e], d.lo[e]);
      box.hi[e] = std::max(box.hi[e], d.hi[e]);
    }
  }
  return box;
}

} // namespace fft3d
