//===- dataflow/grid.hpp - A grid of blocks, stated once -----------------===//
///
/// \file
/// Blocked algorithms (LCS's wavefront, a stencil sweep, a blocked matrix
/// product) make one node per block of a 2-D index space, each fed by some
/// of its neighbours. A Grid states that once: the tiling, where each
/// block's inputs come from (`{dataflow::above, dataflow::left}`), and one
/// callable for every block, which receives its Tile and a pointer per
/// neighbour, null at the grid's edge:
///
/// ```c++
/// dataflow::Grid blocks(g, "block", {n, m, 1024}, {dataflow::above, dataflow::left},
///                       [](const dataflow::Tile &t, const Row *up, const Row *left) { ... });
/// g.node("last", {blocks.back()}, [](const Row &r) { return r.back(); });
/// ```
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/task_graph.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace dataflow {

/// A `rows` x `cols` index space cut into blocks of `block` x `block` (the
/// last row and column of blocks may be smaller). An empty extent is one
/// empty block, so a grid always has a last block.
struct Tiling {
  /// The index space's extents.
  std::size_t rows = 0, cols = 0;
  /// Rows and columns per block (at least 1).
  std::size_t block = 1;

  /// Rows and columns of blocks (at least 1 each).
  std::size_t block_rows() const noexcept;
  std::size_t block_cols() const noexcept;
};

/// One block of a Grid: where it is among the blocks, and the index rows
/// and columns it covers.
struct Tile {
  /// Its row and column among the blocks.
  std::size_t i = 0, j = 0;
  /// The index rows it covers: [first_row, first_row + rows).
  std::size_t first_row = 0, rows = 0;
  /// The index columns it covers: [first_col, first_col + cols).
  std::size_t first_col = 0, cols = 0;
};

/// Where a block's input comes from: the block `rows` block-rows and `cols`
/// block-columns away.
struct Offset {
  int rows = 0;
  int cols = 0;
};
inline constexpr Offset above{-1, 0};
inline constexpr Offset left{0, -1};
inline constexpr Offset above_left{-1, -1};

namespace detail {
template <class A>
inline constexpr bool kNeighbourParameter =
    std::is_pointer_v<A> && std::is_const_v<std::remove_pointer_t<A>>;

/// The argument for a block's parameter of type A from operand `slot`: a
/// pointer (null for slot -1) for a neighbour, else the operand.
template <class A> decltype(auto) block_argument(std::span<const Operand> in, int slot) {
  if constexpr (std::is_pointer_v<A>) {
    using T = std::remove_const_t<std::remove_pointer_t<A>>;
    return slot < 0 ? static_cast<const T *>(nullptr) : &in[slot].get<T>();
  } else {
    return in[slot].get<typename InputType<A>::type>();
  }
}

template <class A> const Codec *block_codec() {
  if constexpr (std::is_pointer_v<A>)
    return &codec_of<std::remove_const_t<std::remove_pointer_t<A>>>();
  else
    return &codec_of<typename InputType<A>::type>();
}
} // namespace detail

/// A node per block of a Tiling, named "name i,j", all bound to one
/// callable.
class Grid {
public:
  /// `fn(tile, neighbours..., ports...)`: parameter k after the Tile, a
  /// `const T *`, is fed by the block at `from[k]` (null where the grid has
  /// no such block); parameters after those are ordinary ports (by value or
  /// const reference), which the caller feeds with `g.connect(x, grid(i,
  /// j))`. A block's ports are its neighbours that exist, then the others.
  template <std::size_t K, class F>
  Grid(TaskGraph &graph, const std::string &name, Tiling tiling, const Offset (&from)[K], F fn)
      : Grid(graph, tiling) {
    add_blocks(name, std::vector<Offset>(from, from + K), std::move(fn));
  }
  /// A grid whose blocks take no neighbours: `fn(tile, ports...)`.
  template <class F>
  Grid(TaskGraph &graph, const std::string &name, Tiling tiling, F fn) : Grid(graph, tiling) {
    add_blocks(name, {}, std::move(fn));
  }

  /// The node of block (i, j); graph_error outside the grid.
  Node operator()(std::size_t i, std::size_t j) const;
  /// The last block (bottom right), where a wavefront ends.
  Node back() const { return (*this)(rows_ - 1, cols_ - 1); }
  std::size_t rows() const noexcept { return rows_; }
  std::size_t cols() const noexcept { return cols_; }
  /// The tile of block (i, j).
  Tile tile(std::size_t i, std::size_t j) const;

private:
  Grid(TaskGraph &graph, Tiling tiling);

  /// Block (i, j)'s neighbour at `offset`, if the grid has it.
  bool has_neighbour(std::size_t i, std::size_t j, Offset offset) const;
  /// Adds the edges from each block's neighbours, once every block exists.
  void connect_neighbours(const std::vector<Offset> &from);

  template <class F> void add_blocks(const std::string &name, std::vector<Offset> from, F fn) {
    static_assert(detail::kTypedCallable<F>,
                  "a grid's callable must have one call operator that is not a template: write "
                  "the parameter types, as in [](const dataflow::Tile &t, const Row *up) { ... }");
    using Traits = detail::CallableTraits<F>;
    using Args = typename Traits::Args;
    constexpr std::size_t parameters = std::tuple_size_v<Args>;
    static_assert(parameters >= 1 &&
                      std::is_same_v<std::remove_cvref_t<std::tuple_element_t<0, Args>>, Tile>,
                  "a grid's callable takes the block's Tile first: [](const dataflow::Tile &t, "
                  "...)");
    add_typed<F, Args>(name, from, std::make_shared<F>(std::move(fn)),
                       std::make_index_sequence<parameters - 1>{});
  }

  template <class F, class Args, std::size_t... I>
  void add_typed(const std::string &name, const std::vector<Offset> &from, std::shared_ptr<F> fn,
                 std::index_sequence<I...>) {
    using Result = typename detail::CallableTraits<F>::Result;
    // Parameter I + 1 of the callable is block input I.
    constexpr std::array<bool, sizeof...(I)> neighbour{
        detail::kNeighbourParameter<std::tuple_element_t<I + 1, Args>>...};
    const std::vector<const Codec *> codecs{
        detail::block_codec<std::tuple_element_t<I + 1, Args>>()...};
    check_neighbours(name, from, std::vector<bool>(neighbour.begin(), neighbour.end()));
    for (std::size_t i = 0; i < rows_; ++i)
      for (std::size_t j = 0; j < cols_; ++j) {
        NodeSpec spec;
        spec.name = detail::pair_name(name, i, j);
        std::array<int, sizeof...(I)> slot{};
        int next = 0;
        for (std::size_t k = 0; k < slot.size(); ++k) {
          const bool absent = k < from.size() && !has_neighbour(i, j, from[k]);
          slot[k] = absent ? -1 : next++;
          if (!absent)
            spec.inputs.push_back(codecs[k]);
        }
        spec.outputs = detail::output_codecs<Result>();
        spec.body = [fn, slot, tile = tile(i, j)](std::span<const Operand> in) {
          return detail::outputs_of<Result>([&]() -> Result {
            return (*fn)(tile,
                         detail::block_argument<std::tuple_element_t<I + 1, Args>>(in, slot[I])...);
          });
        };
        nodes_.push_back(graph_->add_spec(std::move(spec)).id());
      }
    connect_neighbours(from);
  }
  /// graph_error unless the first `from.size()` inputs, and only they, are
  /// neighbours.
  static void check_neighbours(const std::string &name, const std::vector<Offset> &from,
                               const std::vector<bool> &neighbour);

  TaskGraph *graph_;
  Tiling tiling_;
  std::size_t rows_;
  std::size_t cols_;
  std::vector<NodeId> nodes_;
};

} // namespace dataflow
