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

#include <dataflow/command_line.hpp>
#include <dataflow/dataflow.hpp>

#include <cstdio>

/// The run's input: the two sequences and the block size.
struct LcsProblem {
  std::string a, b;
  long block = 0;
  void poc_write(poc::Writer &w) const { w.write_all(a, b, block); }
  void poc_read(poc::Reader &r) { r.read_all(a, b, block); }
};

/// What a block passes on: its bottom row (with the corner) and its last
/// column.
using Boundary = std::pair<std::vector<lcs::Cell>, std::vector<lcs::Cell>>;

dataflow::TaskGraph lcs_graph(const LcsProblem &p) {
  const auto shared = std::make_shared<const LcsProblem>(p);
  const std::size_t n = p.a.size(), m = p.b.size(), B = p.block;
  const std::size_t rows = std::max<std::size_t>(1, (n + B - 1) / B);
  const std::size_t cols = std::max<std::size_t>(1, (m + B - 1) / B);
  auto block = [shared, n, m, B](std::size_t i, std::size_t j, const Boundary *up,
                                 const Boundary *left) {
    const std::size_t r0 = i * B, h = std::min(n, r0 + B) - std::min(n, r0);
    const std::size_t c0 = j * B, w = std::min(m, c0 + B) - std::min(m, c0);
    Boundary out{up ? up->first : std::vector<lcs::Cell>(w + 1, 0), std::vector<lcs::Cell>(h)};
    const std::vector<lcs::Cell> zeros(left ? 0 : h, 0);
    lcs::fill_block(shared->a.data() + std::min(n, r0), h, shared->b.data() + std::min(m, c0), w,
                    out.first.data(), left ? left->second.data() : zeros.data(), out.second.data());
    return out;
  };

  dataflow::TaskGraph g;
  std::vector<dataflow::Node> nodes;
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      const std::string name = "block " + std::to_string(i) + "," + std::to_string(j);
      if (i == 0 && j == 0)
        nodes.push_back(g.node(name, [=] { return block(i, j, nullptr, nullptr); }));
      else if (i == 0)
        nodes.push_back(g.node(name, [=](const Boundary &l) { return block(i, j, nullptr, &l); }));
      else if (j == 0)
        nodes.push_back(g.node(name, [=](const Boundary &u) { return block(i, j, &u, nullptr); }));
      else
        nodes.push_back(g.node(
            name, [=](const Boundary &u, const Boundary &l) { return block(i, j, &u, &l); }));
      if (i > 0)
        g.connect(nodes[(i - 1) * cols + j], nodes.back(), 0);
      if (j > 0)
        g.connect(nodes[i * cols + j - 1], nodes.back(), i > 0 ? 1 : 0);
    }
  // The last block's bottom row ends with the LCS length.
  g.node("lcs length", [](const Boundary &last) { return last.first.back(); });
  g.connect(nodes.back(), dataflow::Node(g, static_cast<dataflow::NodeId>(g.size() - 1)), 0);
  return g;
}

int main(int argc, char **argv) {
  long block = 1024;
  dataflow::CommandLine line("dataflow-lcs", "A B");
  line.option("--block", "N: rows and columns per block (default 1024)", block, 1);
  return dataflow::program_main(line, argc, argv, [&](const std::vector<std::string> &files) {
    if (files.size() != 2)
      throw dataflow::usage_error("needs two files, A and B");
    LcsProblem p{lcs::read_sequence(files[0]), lcs::read_sequence(files[1]), block};
    if (line.sequential()) {
      std::printf("lcs length: %d\n", lcs::sequential_length(p.a, p.b));
      return;
    }
    const dataflow::Results r = dataflow::run(lcs_graph, p, line.run_options());
    std::printf("lcs length: %d\n", r.value<lcs::Cell>("lcs length"));
    if (line.stats())
      dataflow::print_stats(r.stats());
  });
}
