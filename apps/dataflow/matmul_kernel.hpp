//===- matmul_kernel.hpp - The blocked matrix product's arithmetic -*- C++ -*-===//
///
/// \file
/// C = A B for N x N matrices generated from their indices, cut into panels
/// of B rows of A and B columns of B: each block of C is a row panel of A
/// times a column panel of B. The sequential program, the dataflow graph
/// and the hand-written MPI version (bench/dataflow) all compute with these
/// functions and add up C in the same order, so they print the same sum.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace matmul {

using Panel = std::vector<double>;

/// The matrices' size and the panels' width.
struct Problem {
  long size = 0;
  long block = 0;
  /// Panels of A (and of B): ceil(size / block).
  long panels() const { return (size + block - 1) / block; }
  /// Rows (columns) in panel p: block, or fewer for the last one.
  long extent(long p) const { return std::min(size, (p + 1) * block) - p * block; }
};

inline double a_element(long i, long j) {
  return static_cast<double>((i * 7 + j * 3) % 17) / 8.0 - 1.0;
}
inline double b_element(long i, long j) {
  return static_cast<double>((i * 5 + j * 11) % 13) / 6.0 - 1.0;
}

/// Row panel p of A, row-major.
inline Panel a_panel(const Problem &m, long p) {
  const long n = m.size, r0 = p * m.block;
  Panel panel(m.extent(p) * n);
  for (long i = 0; i < m.extent(p); ++i)
    for (long k = 0; k < n; ++k)
      panel[i * n + k] = a_element(r0 + i, k);
  return panel;
}
/// Column panel p of B, stored column by column.
inline Panel b_panel(const Problem &m, long p) {
  const long n = m.size, c0 = p * m.block;
  Panel panel(m.extent(p) * n);
  for (long j = 0; j < m.extent(p); ++j)
    for (long k = 0; k < n; ++k)
      panel[j * n + k] = b_element(k, c0 + j);
  return panel;
}

/// The block of C that a row panel of A and a column panel of B make
/// (row-major, rows x cols): dot products of contiguous rows and columns.
inline Panel multiply(const Panel &a, const Panel &b, long n) {
  const long rows = static_cast<long>(a.size()) / n, cols = static_cast<long>(b.size()) / n;
  Panel c(rows * cols);
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j) {
      double sum = 0;
      for (long k = 0; k < n; ++k)
        sum += a[i * n + k] * b[j * n + k];
      c[i * cols + j] = sum;
    }
  return c;
}

/// Adds block (i, j) of C into the sum of all elements and the trace, in
/// one fixed order (blocks in row-major order make the same sums everywhere).
inline void account(const Problem &m, long i, long j, const Panel &c, double &sum, double &trace) {
  const long r0 = i * m.block, c0 = j * m.block, cols = m.extent(j);
  for (std::size_t e = 0; e < c.size(); ++e) {
    sum += c[e];
    if (r0 + static_cast<long>(e) / cols == c0 + static_cast<long>(e) % cols)
      trace += c[e];
  }
}

} // namespace matmul
