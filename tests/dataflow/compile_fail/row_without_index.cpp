// Must not compile: a row of nodes' callable takes the node's index first.
#include <dataflow/task_graph.hpp>

dataflow::TaskGraph build() {
  dataflow::TaskGraph g;
  g.nodes("part", 4, [](const std::string &s) { return s; });
  return g;
}
