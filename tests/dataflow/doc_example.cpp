// The examples of docs/dataflow.md, as written there: a task graph whose
// result is "b21", a stream graph whose vertex B reports 1..100, and rows,
// pairs and a join that add up to 360.
#include <cstdio>
#include <dataflow/dataflow.hpp>
#include <numeric>
struct Problem {
  int n = 0;
};
dataflow::TaskGraph build(const Problem &p) { // called on every machine
  dataflow::TaskGraph g;
  auto a = g.node("a", [] { return 20; });
  auto b = g.node("b", [](int x) { return dataflow::Outputs<int, std::string>{x + 1, "b"}; });
  g.node("c", {b.output(0), b.output(1)}, // b's outputs 0 and 1 -> c's inputs 0 and 1
         [](int x, const std::string &s) { return s + std::to_string(x); });
  g.connect(a, b); // a's output 0 -> b's next free input (0)
  return g;        // c's output has no edge: it is a result
}
dataflow::StreamGraph sbuild(const long &threshold) {
  dataflow::StreamGraph g;
  auto ab = std::make_shared<dataflow::Stream<long>>(); // made below, used by A's start
  auto a = g.vertex("A", [ab, threshold](dataflow::Vertex &v) {
    for (long i = 0; i < threshold; ++i)
      v.write(*ab, 1L);
  });
  auto b = g.vertex("B");
  b.reports<long>();                    // what B may report
  auto sum = std::make_shared<long>(0); // B's state
  *ab = g.stream<long>(a, b, [sum, threshold](dataflow::Vertex &v, const long &x) {
    *sum += x;
    v.report(*sum);
    return *sum >= threshold ? dataflow::Signal::close : dataflow::Signal::keep;
  });
  g.container({a});    // A alone on a machine
  g.container({b}, 0); // B on machine 0
  return g;
}
dataflow::TaskGraph table(long n) {
  dataflow::TaskGraph g;
  const auto rows = g.nodes("row", n, [](long i) { return i + 1; }); // "row 0" ... "row n-1"
  const auto cols = g.nodes("col", n, [](long j) { return 10 * (j + 1); });
  // "cell i,j" takes row i and column j; cells[i * n + j] is its node.
  const auto cells = g.nodes("cell", rows, cols, [](long r, long c) { return r * c; });
  g.join("total", cells, [](dataflow::Joined<long> v) { // every cell, in the order of `cells`
    return std::accumulate(v.begin(), v.end(), 0L);
  });
  return g;
}
int main() {
  Problem problem;
  dataflow::Results r = dataflow::run(build, problem);
  std::printf("%s\n", r.value<std::string>("c").c_str());
  dataflow::Results s = dataflow::run(sbuild, 100);
  std::printf("%zu\n", s.count("B"));
  std::printf("%ld\n", dataflow::run(table, 3).value<long>()); // 6 x 60 = 360
}
