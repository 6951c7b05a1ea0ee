//===- line_transform.cpp - FFTs of one page line -------------------------===//

#include "fft3d/line_transform.hpp"

#include "fft3d/input.hpp"

#include <fftw3.h>

#include <algorithm>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>

namespace fft3d {

namespace {
std::mutex &plannerMutex() {
  static std::mutex m;
  return m;
}

/// The other two dimensions of a line along \p dim, slower one first.
std::pair<int, int> across(int dim) { return {dim == 0 ? 1 : 0, dim == 2 ? 1 : 2}; }

/// Rows of the line buffer for a pass along \p dim: the line's extents
/// across, in the buffer's order (for dim 1 the transposed read puts dim 3
/// before dim 2, but the product is the same).
long long rows(const pocstd::Domain &d, int dim) {
  auto [a, b] = across(dim);
  return d.extent(a) * d.extent(b);
}
} // namespace

LineTransform::LineTransform(const pocstd::Domain &array, const pocstd::Domain &page,
                             const std::vector<int> &signs, bool measure)
    : array_(array), page_(page) {
  std::size_t capacity = 0;
  for (int dim = 0; dim < 3; ++dim) {
    auto [a, b] = across(dim);
    capacity = std::max<std::size_t>(
        capacity, static_cast<std::size_t>(page.extent(a) * page.extent(b) * array.extent(dim)));
  }
  buffer_ = reinterpret_cast<std::complex<double> *>(fftw_alloc_complex(capacity));
  if (buffer_ == nullptr)
    throw std::bad_alloc();
  std::lock_guard<std::mutex> lock(plannerMutex());
  for (int dim = 0; dim < 3; ++dim) {
    auto [a, b] = across(dim);
    int n = static_cast<int>(array.extent(dim));
    // Every line is planned as a full page of rows: lines clipped at the
    // array's edge have fewer, and the spare rows are transformed harmlessly.
    int howmany = static_cast<int>(page.extent(a) * page.extent(b));
    for (int sign : signs) {
      auto *data = reinterpret_cast<fftw_complex *>(buffer_);
      fftw_plan p = fftw_plan_many_dft(1, &n, howmany, data, nullptr, 1, n, data, nullptr, 1, n,
                                       sign, measure ? FFTW_MEASURE : FFTW_ESTIMATE);
      if (p == nullptr)
        throw std::runtime_error("fft3d: FFTW could not plan " + std::to_string(howmany) +
                                 " transforms of length " + std::to_string(n));
      plans_.push_back(Plan{dim, sign, p});
    }
  }
}

LineTransform::~LineTransform() {
  std::lock_guard<std::mutex> lock(plannerMutex());
  for (Plan &p : plans_)
    fftw_destroy_plan(static_cast<fftw_plan>(p.plan));
  fftw_free(buffer_);
}

void *LineTransform::planFor(int dim, int sign) const {
  for (const Plan &p : plans_)
    if (p.dim == dim && p.sign == sign)
      return p.plan;
  throw std::logic_error("fft3d: no FFTW plan for dimension " + std::to_string(dim + 1) +
                         " and sign " + std::to_string(sign));
}

void LineTransform::read(pocstd::Array &a, int dim, const pocstd::Domain &line) {
  switch (dim) {
  case 0:
    a.read_transpose13(line, buffer_);
    return;
  case 1:
    a.read_transpose23(line, buffer_);
    return;
  default:
    a.read(line, buffer_);
  }
}

void LineTransform::write(pocstd::Array &a, int dim, const pocstd::Domain &line) {
  switch (dim) {
  case 0:
    a.write_transpose13(line, buffer_);
    return;
  case 1:
    a.write_transpose23(line, buffer_);
    return;
  default:
    a.write(line, buffer_);
  }
}

void LineTransform::transform(int dim, const pocstd::Domain &line, int sign, double scale) {
  fftw_execute(static_cast<fftw_plan>(planFor(dim, sign)));
  if (scale != 1.0) {
    std::size_t count = static_cast<std::size_t>(rows(line, dim) * array_.extent(dim));
    for (std::size_t i = 0; i < count; ++i)
      buffer_[i] *= scale;
  }
}

void LineTransform::fillInput(std::uint64_t seed, const pocstd::Domain &line) {
  fft3d::fillInput(seed, array_, line, buffer_);
}

} // namespace fft3d
