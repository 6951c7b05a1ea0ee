// Must not compile: a join's callable takes its inputs as one Joined<T>.
#include <dataflow/task_graph.hpp>

dataflow::TaskGraph build() {
  dataflow::TaskGraph g;
  const auto parts = g.nodes("part", 4, [](long k) { return k; });
  g.join("sum", parts, [](long a, long b) { return a + b; });
  return g;
}
