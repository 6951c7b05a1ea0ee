//===- line_transform.cpp - FFTs of one page line -------------------------===//

#include "fft3d/line_transform.hpp"

#include "fft3d/input.hpp"
#include "fft3d/phase_times.hpp"
#include "fft3d/schedule.hpp"

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

/// Points of the buffer for a full page line (or plane) of pass \p pass.
std::size_t lineCapacity(const pocstd::Domain &array, const pocstd::Domain &page, int pass) {
  if (pass == kPlanes23)
    return static_cast<std::size_t>(page.extent(0) * array.extent(1) * array.extent(2));
  auto [a, b] = across(pass);
  return static_cast<std::size_t>(page.extent(a) * page.extent(b) * array.extent(pass));
}

/// The FFTW plan of pass \p pass on \p data. A line is planned as a full
/// page of rows: lines clipped at the array's edge have fewer, and the spare
/// rows are transformed harmlessly.
fftw_plan planPass(const pocstd::Domain &array, const pocstd::Domain &page, int pass, int sign,
                   fftw_complex *data, unsigned flags) {
  if (pass == kPlanes23) {
    // One plane, executed for each plane of the buffer (transform): a page
    // plane's slices are transformed one at a time anyway when runLine
    // copies them in one at a time.
    int n[2] = {static_cast<int>(array.extent(1)), static_cast<int>(array.extent(2))};
    // The planes after the first keep the buffer's alignment only if a
    // plane's size does.
    if ((std::size_t(n[0]) * std::size_t(n[1]) * sizeof(fftw_complex)) % 64 != 0)
      flags |= FFTW_UNALIGNED;
    return fftw_plan_dft_2d(n[0], n[1], data, data, sign, flags);
  }
  auto [a, b] = across(pass);
  int n = static_cast<int>(array.extent(pass));
  int howmany = static_cast<int>(page.extent(a) * page.extent(b));
  return fftw_plan_many_dft(1, &n, howmany, data, nullptr, 1, n, data, nullptr, 1, n, sign, flags);
}
} // namespace

LineTransform::LineTransform(const pocstd::Domain &array, const pocstd::Domain &page,
                             const std::vector<int> &passes, const std::vector<int> &signs,
                             bool measure)
    : array_(array), page_(page) {
  // The input is written in lines along dimension 3 (writeInput).
  std::size_t capacity = lineCapacity(array, page, 2);
  for (int pass : passes)
    capacity = std::max(capacity, lineCapacity(array, page, pass));
  buffer_ = reinterpret_cast<std::complex<double> *>(fftw_alloc_complex(capacity));
  if (buffer_ == nullptr)
    throw std::bad_alloc();
  std::lock_guard<std::mutex> lock(plannerMutex());
  for (int pass : passes)
    for (int sign : signs) {
      fftw_plan p = planPass(array, page, pass, sign, reinterpret_cast<fftw_complex *>(buffer_),
                             measure ? FFTW_MEASURE : FFTW_ESTIMATE);
      if (p == nullptr)
        throw std::runtime_error("fft3d: FFTW could not plan the pass " + passName(pass) +
                                 " of a " + array.str() + " array in " + page.str() + " pages");
      plans_.push_back(Plan{pass, sign, p});
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
  auto plan = static_cast<fftw_plan>(planFor(dim, sign));
  if (dim == kPlanes23) {
    std::size_t plane = static_cast<std::size_t>(array_.extent(1) * array_.extent(2));
    for (std::int64_t k = 0; k < line.extent(0); ++k) {
      auto *data = reinterpret_cast<fftw_complex *>(buffer_ + static_cast<std::size_t>(k) * plane);
      fftw_execute_dft(plan, data, data);
    }
  } else {
    fftw_execute(plan);
  }
  if (scale != 1.0) {
    std::size_t count = static_cast<std::size_t>(line.size());
    for (std::size_t i = 0; i < count; ++i)
      buffer_[i] *= scale;
  }
}

void LineTransform::fillInput(std::uint64_t seed, const pocstd::Domain &line) {
  fft3d::fillInput(seed, array_, line, buffer_);
}

} // namespace fft3d
