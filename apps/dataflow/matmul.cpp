//===- matmul.cpp - dataflow-matmul: blocked fork-join matrix multiply ---===//
///
/// dataflow-matmul [--size N] [--block B]
///
/// C = A B for N x N matrices generated from their indices. The graph forks
/// into one node per row panel of A and per column panel of B, then one
/// node per block of C (Sucuri's matrix multiply: Silva et al. 2016, section IV),
/// and joins the blocks into C's sum and trace. Prints them; --sequential
/// runs the same graph in this process, one node at a time.
///
//===----------------------------------------------------------------------===//
#include "matmul_kernel.hpp"

#include <dataflow/dataflow.hpp>

#include <cstdio>
#include <utility>

dataflow::TaskGraph matmul_graph(const matmul::Problem &p) {
  dataflow::TaskGraph g;
  const auto rows = g.nodes("A", p.panels(), [p](long k) { return matmul::a_panel(p, k); });
  const auto cols = g.nodes("B", p.panels(), [p](long k) { return matmul::b_panel(p, k); });
  const auto blocks = g.nodes("C", rows, cols, [p](const matmul::Panel &a, const matmul::Panel &b) {
    return matmul::multiply(a, b, p.size);
  });
  // Block (i, j) is blocks[i * panels + j]: added up in row-major order, as
  // the MPI version does, so both print the same digits.
  g.join("sum and trace", blocks, [p](dataflow::Joined<matmul::Panel> c) {
    std::pair<double, double> sum_trace{0, 0};
    for (long k = 0; k < p.panels() * p.panels(); ++k)
      matmul::account(p, k / p.panels(), k % p.panels(), c[k], sum_trace.first, sum_trace.second);
    return sum_trace;
  });
  return g;
}

int main(int argc, char **argv) {
  matmul::Problem p{1024, 256};
  dataflow::CommandLine line("dataflow-matmul");
  line.option("--size", "N: the matrices are N x N (default 1024)", p.size, 1);
  line.option("--block", "B: rows of A and columns of B per panel (default 256)", p.block, 1);
  return dataflow::program_main(line, argc, argv, [&](const std::vector<std::string> &) {
    const auto [sum, trace] =
        dataflow::run(matmul_graph, p, line).value<std::pair<double, double>>();
    std::printf("matmul %ldx%ld: sum %.10e trace %.10e\n", p.size, p.size, sum, trace);
  });
}
