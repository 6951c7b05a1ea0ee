// Must not compile: a functor with two call operators gives its node no
// one set of port types.
#include <dataflow/task_graph.hpp>

struct Twice {
  int operator()(int x) const { return 2 * x; }
  double operator()(double x) const { return 2 * x; }
};

dataflow::TaskGraph build() {
  dataflow::TaskGraph g;
  g.node("twice", Twice{});
  return g;
}
