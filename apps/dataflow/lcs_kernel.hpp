//===- lcs_kernel.hpp - The LCS dynamic program over one block ----*- C++ -*-===//
///
/// \file
/// The longest common subsequence DP, H[i][j] = max(H[i-1][j], H[i][j-1],
/// H[i-1][j-1] + (a[i] == b[j])), over a block of rows and columns given
/// its top row (with the corner) and its left column. The sequential
/// program, the dataflow blocks and the hand-written MPI version
/// (bench/dataflow) all run this one function.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace lcs {

using Cell = std::int32_t;

/// Fills rows a[0..h) x columns b[0..w): `row` holds H of the row above
/// (w + 1 cells, the corner first) and becomes the block's bottom row;
/// `left` holds the h cells left of the block; `right` receives the h cells
/// of its last column. `right` may be `left`: cell r of `left` is read
/// before cell r of `right` is written, and not read again.
inline void fill_block(const char *a, std::size_t h, const char *b, std::size_t w, Cell *row,
                       const Cell *left, Cell *right) {
  for (std::size_t r = 0; r < h; ++r) {
    Cell diagonal = row[0];
    row[0] = left[r];
    const char ar = a[r];
    for (std::size_t k = 1; k <= w; ++k) {
      const Cell up = row[k];
      row[k] = std::max(std::max(up, row[k - 1]), static_cast<Cell>(diagonal + (ar == b[k - 1])));
      diagonal = up;
    }
    right[r] = row[w];
  }
}

/// The LCS length of `a` and `b`, sequentially.
inline Cell sequential_length(const std::string &a, const std::string &b) {
  std::vector<Cell> row(b.size() + 1, 0), left(a.size(), 0), right(a.size());
  fill_block(a.data(), a.size(), b.data(), b.size(), row.data(), left.data(), right.data());
  return row.back();
}

/// The contents of `path`, one sequence: a trailing newline is not part of it.
inline std::string read_sequence(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error("cannot read " + path);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad())
    throw std::runtime_error("cannot read " + path);
  if (!s.empty() && s.back() == '\n')
    s.pop_back();
  if (!s.empty() && s.back() == '\r')
    s.pop_back();
  return s;
}

} // namespace lcs
