//===- pocstd/transpose.hpp - Cache-blocked 2D transpose ----------*- C++ -*-===//
///
/// \file
/// The one kernel behind ArrayPage's transposes and Array's transposing
/// gathers: out[c][r] = in[r][c] for a rows x cols matrix with arbitrary row
/// strides, in tiles so that both sides stay in cache.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>

namespace pocstd {

/// Writes the transpose of the \p rows x \p cols matrix at \p in (row stride
/// \p inStride elements) to \p out (row stride \p outStride): out[c*outStride
/// + r] = in[r*inStride + c].
inline void transposePlane(const std::complex<double> *in, std::size_t inStride,
                           std::complex<double> *out, std::size_t outStride, std::size_t rows,
                           std::size_t cols) {
  // 8 x 8 complex tiles (1 KiB a side). Page strides are often multiples of
  // 4 KiB, which map every row of a tile to the same L1 sets; 8 rows still
  // fit in an 8-way L1, 16 thrash it (measured: 16 x 16 was ~1.5x slower).
  constexpr std::size_t kTile = 8;
  for (std::size_t r0 = 0; r0 < rows; r0 += kTile) {
    std::size_t r1 = std::min(rows, r0 + kTile);
    for (std::size_t c0 = 0; c0 < cols; c0 += kTile) {
      std::size_t c1 = std::min(cols, c0 + kTile);
      for (std::size_t r = r0; r < r1; ++r)
        for (std::size_t c = c0; c < c1; ++c)
          out[c * outStride + r] = in[r * inStride + c];
    }
  }
}

} // namespace pocstd
