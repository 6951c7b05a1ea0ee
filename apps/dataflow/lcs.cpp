//===- lcs.cpp - dataflow-lcs: blocked wavefront LCS as a task graph -----===//
///
/// dataflow-lcs [--scheduler central|distributed] [--block N] A B
///
/// Prints "lcs length: N" for the byte strings in files A and B. Block
/// (i, j) of the DP matrix is a node; it needs the boundary of the block
/// above and of the block to its left, so the graph is a wavefront
/// (Sucuri's LCS: Silva et al., Task Scheduling in Sucuri Dataflow Library, 2016, section IV).
///
//===----------------------------------------------------------------------===//
#include "lcs_kernel.hpp"

#include <dataflow/dataflow.hpp>

#include <cstdio>

/// What a block passes on: its bottom row (with the corner) and its last
/// column.
using Boundary = std::pair<std::vector<lcs::Cell>, std::vector<lcs::Cell>>;

dataflow::TaskGraph lcs_graph(const std::string &a, const std::string &b, std::size_t block) {
  dataflow::TaskGraph g;
  // Block (i, j) starts from the bottom row of the block above and the last
  // column of the block to its left (zeros at the matrix's edge); its
  // right column is filled over the left one.
  dataflow::Grid blocks(g, "block", {a.size(), b.size(), block}, {dataflow::above, dataflow::left},
                        [a, b](const dataflow::Tile &t, const Boundary *up, const Boundary *left) {
                          Boundary out{up ? up->first : std::vector<lcs::Cell>(t.cols + 1),
                                       left ? left->second : std::vector<lcs::Cell>(t.rows)};
                          lcs::fill_block(a.data() + t.first_row, t.rows, b.data() + t.first_col,
                                          t.cols, out.first.data(), out.second.data(),
                                          out.second.data());
                          return out;
                        });
  // The last block's bottom row ends with the LCS length.
  g.node("lcs length", {blocks.back()}, [](const Boundary &last) { return last.first.back(); });
  return g;
}

int main(int argc, char **argv) {
  std::size_t block = 1024;
  dataflow::CommandLine line("dataflow-lcs", "A B");
  line.option("--block", "N: rows and columns per block (default 1024)", block, 1);
  line.operands(2, "needs two files, A and B");
  return dataflow::program_main(line, argc, argv, [&](const std::vector<std::string> &files) {
    // With --sequential, run runs the graph in this process; the plain DP
    // over the whole matrix is bench/dataflow's sequential-lcs.
    std::printf("lcs length: %d\n", dataflow::run(lcs_graph, lcs::read_sequence(files[0]),
                                                  lcs::read_sequence(files[1]), block, line)
                                        .value<lcs::Cell>());
  });
}
