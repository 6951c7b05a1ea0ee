//===- reference.cpp - The in-core FFTW reference -------------------------===//

#include "fft3d/reference.hpp"

#include "fft3d/input.hpp"
#include "pocstd/domain.hpp"

#include <fftw3.h>

#include <algorithm>
#include <stdexcept>

namespace fft3d {

std::vector<std::complex<double>> makeInput(std::uint64_t seed, const std::array<int, 3> &n) {
  std::vector<std::complex<double>> data(static_cast<std::size_t>(n[0]) * n[1] * n[2]);
  pocstd::Domain all = pocstd::Domain::box(n[0], n[1], n[2]);
  fillInput(seed, all, all, data.data());
  return data;
}

void referenceTransform(std::vector<std::complex<double>> &data, const std::array<int, 3> &n,
                        int sign, bool normalize) {
  auto *p = reinterpret_cast<fftw_complex *>(data.data());
  // FFTW_ESTIMATE leaves the data alone while planning.
  fftw_plan plan = fftw_plan_dft_3d(n[0], n[1], n[2], p, p, sign, FFTW_ESTIMATE);
  if (plan == nullptr)
    throw std::runtime_error("fft3d: FFTW could not plan the reference transform");
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  if (normalize) {
    double scale = 1.0 / static_cast<double>(data.size());
    for (auto &x : data)
      x *= scale;
  }
}

double maxRelativeError(const std::vector<std::complex<double>> &x,
                        const std::vector<std::complex<double>> &ref) {
  if (x.size() != ref.size())
    throw std::invalid_argument("fft3d: comparing arrays of different sizes");
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    err = std::max(err, std::abs(x[i] - ref[i]));
    scale = std::max(scale, std::abs(ref[i]));
  }
  return scale == 0 ? err : err / scale;
}

} // namespace fft3d
