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
#include <dataflow/command_line.hpp>
#include <dataflow/dataflow.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

double a_element(long i, long j) { return static_cast<double>((i * 7 + j * 3) % 17) / 8.0 - 1.0; }
double b_element(long i, long j) { return static_cast<double>((i * 5 + j * 11) % 13) / 6.0 - 1.0; }

/// Rows [r0, r0 + rows) of A, row-major, or columns [c0, c0 + cols) of B,
/// stored column by column.
std::vector<double> a_panel(long n, long r0, long rows) {
  std::vector<double> p(rows * n);
  for (long i = 0; i < rows; ++i)
    for (long k = 0; k < n; ++k)
      p[i * n + k] = a_element(r0 + i, k);
  return p;
}
std::vector<double> b_panel(long n, long c0, long cols) {
  std::vector<double> p(cols * n);
  for (long j = 0; j < cols; ++j)
    for (long k = 0; k < n; ++k)
      p[j * n + k] = b_element(k, c0 + j);
  return p;
}

/// The block of C that a row panel of A and a column panel of B make
/// (row-major, rows x cols): dot products of contiguous rows and columns.
std::vector<double> multiply(const std::vector<double> &a, const std::vector<double> &b, long n) {
  const long rows = static_cast<long>(a.size()) / n, cols = static_cast<long>(b.size()) / n;
  std::vector<double> c(rows * cols);
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j) {
      double sum = 0;
      for (long k = 0; k < n; ++k)
        sum += a[i * n + k] * b[j * n + k];
      c[i * cols + j] = sum;
    }
  return c;
}

struct MatmulProblem {
  long size = 0, block = 0;
  long panels() const { return (size + block - 1) / block; }
  long extent(long p) const { return std::min(size, (p + 1) * block) - p * block; }
  void poc_write(poc::Writer &w) const { w.write_all(size, block); }
  void poc_read(poc::Reader &r) { r.read_all(size, block); }
};

std::string block_name(long i, long j) {
  return "C " + std::to_string(i) + "," + std::to_string(j);
}

/// Adds up a block of C (row-major, starting at row r0, column c0) into
/// the sum of all elements and the trace, in one fixed order.
void account(const std::vector<double> &c, long r0, long c0, long cols, double &sum,
             double &trace) {
  for (std::size_t e = 0; e < c.size(); ++e) {
    sum += c[e];
    if (r0 + static_cast<long>(e) / cols == c0 + static_cast<long>(e) % cols)
      trace += c[e];
  }
}

} // namespace

dataflow::TaskGraph matmul_graph(const MatmulProblem &p) {
  dataflow::TaskGraph g;
  const long n = p.size, P = p.panels();
  std::vector<dataflow::Node> rows, cols;
  for (long i = 0; i < P; ++i)
    rows.push_back(
        g.node("A " + std::to_string(i), [=] { return a_panel(n, i * p.block, p.extent(i)); }));
  for (long j = 0; j < P; ++j)
    cols.push_back(
        g.node("B " + std::to_string(j), [=] { return b_panel(n, j * p.block, p.extent(j)); }));
  for (long i = 0; i < P; ++i)
    for (long j = 0; j < P; ++j) {
      auto c =
          g.node(block_name(i, j), [n](const std::vector<double> &a, const std::vector<double> &b) {
            return multiply(a, b, n);
          });
      g.connect(rows[i], c, 0);
      g.connect(cols[j], c, 1);
    }
  return g;
}

int main(int argc, char **argv) {
  long size = 1024, block = 256;
  dataflow::CommandLine line("dataflow-matmul", "");
  line.option("--size", "N: the matrices are N x N (default 1024)", size, 1);
  line.option("--block", "B: rows of A and columns of B per panel (default 256)", block, 1);
  return dataflow::program_main(line, argc, argv, [&](const std::vector<std::string> &operands) {
    if (!operands.empty())
      throw dataflow::usage_error("takes no operands");
    const MatmulProblem p{size, block};
    double sum = 0, trace = 0;
    if (line.sequential()) {
      for (long i = 0; i < p.panels(); ++i) {
        const auto a = a_panel(size, i * block, p.extent(i));
        for (long j = 0; j < p.panels(); ++j)
          account(multiply(a, b_panel(size, j * block, p.extent(j)), size), i * block, j * block,
                  p.extent(j), sum, trace);
      }
    } else {
      const dataflow::Results r = dataflow::run(matmul_graph, p, line.run_options());
      for (long i = 0; i < p.panels(); ++i)
        for (long j = 0; j < p.panels(); ++j)
          account(r.value<std::vector<double>>(block_name(i, j)), i * block, j * block, p.extent(j),
                  sum, trace);
      if (line.stats())
        dataflow::print_stats(r.stats());
    }
    std::printf("matmul %ldx%ld: sum %.10e trace %.10e\n", size, size, sum, trace);
  });
}
