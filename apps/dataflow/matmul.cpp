//===- matmul.cpp - dataflow-matmul: blocked fork-join matrix multiply ---===//
///
/// dataflow-matmul [--size N] [--block B]
///
/// C = A B for N x N matrices generated from their indices. The graph forks
/// into one node per row panel of A and per column panel of B, then one
/// node per block of C (Sucuri's matrix multiply: Silva et al. 2016, section IV);
/// the blocks are the graph's results, joined by main. Prints the sum of
/// C's elements and its trace.
///
//===----------------------------------------------------------------------===//
#include "matmul_kernel.hpp"

#include <dataflow/dataflow.hpp>

#include <cstdio>
#include <string>
#include <vector>

std::string block_name(long i, long j) {
  return "C " + std::to_string(i) + "," + std::to_string(j);
}

dataflow::TaskGraph matmul_graph(const matmul::Problem &p) {
  dataflow::TaskGraph g;
  std::vector<dataflow::Node> rows, cols;
  for (long k = 0; k < p.panels(); ++k)
    rows.push_back(g.node("A " + std::to_string(k), [p, k] { return matmul::a_panel(p, k); }));
  for (long k = 0; k < p.panels(); ++k)
    cols.push_back(g.node("B " + std::to_string(k), [p, k] { return matmul::b_panel(p, k); }));
  for (long i = 0; i < p.panels(); ++i)
    for (long j = 0; j < p.panels(); ++j)
      g.node(block_name(i, j), {rows[i], cols[j]},
             [n = p.size](const matmul::Panel &a, const matmul::Panel &b) {
               return matmul::multiply(a, b, n);
             });
  return g;
}

int main(int argc, char **argv) {
  matmul::Problem p{1024, 256};
  dataflow::CommandLine line("dataflow-matmul", "");
  line.option("--size", "N: the matrices are N x N (default 1024)", p.size, 1);
  line.option("--block", "B: rows of A and columns of B per panel (default 256)", p.block, 1);
  line.operands(0, "takes no operands");
  return dataflow::program_main(line, argc, argv, [&](const std::vector<std::string> &) {
    const dataflow::Results r = line.sequential()
                                    ? dataflow::Results()
                                    : dataflow::run(matmul_graph, p, line.run_options());
    // Block (i, j) of C: computed here (--sequential) or by the graph.
    const auto block = [&](long i, long j) {
      return line.sequential()
                 ? matmul::multiply(matmul::a_panel(p, i), matmul::b_panel(p, j), p.size)
                 : r.value<matmul::Panel>(block_name(i, j));
    };
    double sum = 0, trace = 0;
    for (long i = 0; i < p.panels(); ++i)
      for (long j = 0; j < p.panels(); ++j)
        matmul::account(p, i, j, block(i, j), sum, trace);
    std::printf("matmul %ldx%ld: sum %.10e trace %.10e\n", p.size, p.size, sum, trace);
  });
}
