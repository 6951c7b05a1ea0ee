//===- grid.cpp - A grid of blocks ---------------------------------------===//
#include <dataflow/grid.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace dataflow {

namespace {
/// Blocks of `block` along an extent: at least one, so an empty extent is
/// one empty block.
std::size_t blocks_along(std::size_t extent, std::size_t block) {
  return std::max<std::size_t>(1, (extent + block - 1) / block);
}
} // namespace

std::size_t Tiling::block_rows() const noexcept { return blocks_along(rows, block); }
std::size_t Tiling::block_cols() const noexcept { return blocks_along(cols, block); }

namespace {
/// `tiling`, if its blocks are not empty (before anything divides by them).
Tiling checked(Tiling tiling) {
  if (tiling.block == 0)
    throw graph_error("a grid's blocks must have at least one row and column (block is 0)");
  return tiling;
}
} // namespace

Grid::Grid(TaskGraph &graph, Tiling tiling)
    : graph_(&graph), tiling_(checked(tiling)), rows_(tiling_.block_rows()),
      cols_(tiling_.block_cols()) {}

Node Grid::operator()(std::size_t i, std::size_t j) const {
  if (i >= rows_ || j >= cols_)
    throw graph_error(
        fmt::format("the grid has {} x {} blocks, not a block ({}, {})", rows_, cols_, i, j));
  return Node(*graph_, nodes_[i * cols_ + j]);
}

Tile Grid::tile(std::size_t i, std::size_t j) const {
  Tile t;
  t.i = i;
  t.j = j;
  t.first_row = std::min(tiling_.rows, i * tiling_.block);
  t.rows = std::min(tiling_.rows, t.first_row + tiling_.block) - t.first_row;
  t.first_col = std::min(tiling_.cols, j * tiling_.block);
  t.cols = std::min(tiling_.cols, t.first_col + tiling_.block) - t.first_col;
  return t;
}

namespace {
/// `at` moved by `by`, or -1 if that leaves [0, count).
long long moved(std::size_t at, int by, std::size_t count) {
  const long long to = static_cast<long long>(at) + by;
  return to >= 0 && to < static_cast<long long>(count) ? to : -1;
}
} // namespace

bool Grid::has_neighbour(std::size_t i, std::size_t j, Offset offset) const {
  return moved(i, offset.rows, rows_) >= 0 && moved(j, offset.cols, cols_) >= 0;
}

void Grid::connect_neighbours(const std::vector<Offset> &from) {
  for (std::size_t i = 0; i < rows_; ++i)
    for (std::size_t j = 0; j < cols_; ++j) {
      unsigned port = 0;
      for (const Offset &offset : from)
        if (has_neighbour(i, j, offset))
          graph_->connect((*this)(static_cast<std::size_t>(moved(i, offset.rows, rows_)),
                                  static_cast<std::size_t>(moved(j, offset.cols, cols_))),
                          (*this)(i, j), port++);
    }
}

void Grid::check_neighbours(const std::string &name, const std::vector<Offset> &from,
                            const std::vector<bool> &neighbour) {
  const auto pointers =
      static_cast<std::size_t>(std::count(neighbour.begin(), neighbour.end(), true));
  const bool leading =
      pointers == from.size() &&
      std::all_of(neighbour.begin(), neighbour.begin() + pointers, [](bool b) { return b; });
  if (!leading)
    throw graph_error(
        fmt::format("grid '{}': {} neighbours are named, so the callable takes the Tile, then {} "
                    "parameters `const T *` (one per neighbour, null at the grid's edge), then its "
                    "ordinary ports; it has {} pointer parameters",
                    name, from.size(), from.size(), pointers));
}

} // namespace dataflow
