//===- fft3d/streamed_check.hpp - Checks of arrays larger than memory -*- C++ -*-===//
///
/// \file
/// What --verify does where FFTW's in-core reference cannot go: it reads the
/// array back a column of pages at a time (n1 x n2 x N3 elements) and
/// compares it with the generated input, so an out-of-core array is checked
/// in the memory of one page column.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/array.hpp"

#include <cstdint>

namespace fft3d {

/// A round trip (forward, then the normalised inverse) against its input:
/// max_i |x_i - input_i| / max_i |input_i| over the array's read page set.
double roundTripError(pocstd::Array &array, std::uint64_t seed);

/// Parseval's theorem for a transform of the generated input: the relative
/// difference between sum |X_i|^2 over the array's read page set and
/// \p scale times sum |input_i|^2 (scale N1 N2 N3 for the forward
/// transform, 1 / (N1 N2 N3) for the normalised inverse). A check of the
/// energy only, for arrays too large for the in-core reference.
double energyError(pocstd::Array &array, std::uint64_t seed, double scale);

} // namespace fft3d
