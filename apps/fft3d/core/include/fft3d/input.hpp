//===- fft3d/input.hpp - Deterministic input data -----------------*- C++ -*-===//
///
/// \file
/// The input array is a pure function of the point's index and a seed, so
/// every FFT process generates its own part in place (no data travels to set
/// up a run) and the verifier regenerates the same array in-core.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/domain.hpp"

#include <complex>
#include <cstdint>

namespace fft3d {

/// The input value at (x1, x2, x3) of an array of extents \p n: real and
/// imaginary parts uniform in [-1, 1), from a hash of the linear index.
std::complex<double> inputValue(std::uint64_t seed, const std::int64_t n[3], std::int64_t x1,
                                std::int64_t x2, std::int64_t x3);

/// Fills \p buffer, row-major over \p d, with the input of the array
/// \p array.
void fillInput(std::uint64_t seed, const pocstd::Domain &array, const pocstd::Domain &d,
               std::complex<double> *buffer);

} // namespace fft3d
