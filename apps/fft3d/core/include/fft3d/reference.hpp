//===- fft3d/reference.hpp - The in-core FFTW reference -----------*- C++ -*-===//
///
/// \file
/// What --verify compares with: FFTW's single-process in-core 3D transform
/// of the same generated input.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <complex>
#include <cstdint>
#include <vector>

namespace fft3d {

/// The whole N1 x N2 x N3 input array (see inputValue), row-major.
std::vector<std::complex<double>> makeInput(std::uint64_t seed, const std::array<int, 3> &n);

/// Transforms \p data (row-major N1 x N2 x N3) in place with
/// fftw_plan_dft_3d and \p sign, dividing by N1*N2*N3 when \p normalize.
void referenceTransform(std::vector<std::complex<double>> &data, const std::array<int, 3> &n,
                        int sign, bool normalize);

/// max_i |x_i - ref_i| / max_i |ref_i|: the error relative to the result's
/// scale (a pointwise ratio is meaningless where the reference is near 0).
double maxRelativeError(const std::vector<std::complex<double>> &x,
                        const std::vector<std::complex<double>> &ref);

} // namespace fft3d
