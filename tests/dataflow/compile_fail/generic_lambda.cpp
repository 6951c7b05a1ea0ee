// Must not compile: a generic lambda as a node gives its ports no types.
#include <dataflow/task_graph.hpp>

dataflow::TaskGraph build() {
  dataflow::TaskGraph g;
  g.node("twice", [](auto x) { return 2 * x; });
  return g;
}
