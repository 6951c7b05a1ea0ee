//===- worker_exit.cpp - A worker's process ends in the middle of a run --===//
///
/// A node on the last machine ends its whole OS process (as a crash or a
/// kill would). The run must not hang: the job ends with an error that
/// names the rank that died (mpirun's report), and main prints nothing.
///
//===----------------------------------------------------------------------===//
#include <dataflow/dataflow.hpp>

#include <cstdio>
#include <cstdlib>

dataflow::TaskGraph dying_graph(const int &machines) {
  dataflow::TaskGraph g;
  auto first = g.node("first", [] { return 1; });
  auto dies = g.node("dies", [](int) -> int { std::_Exit(3); });
  dies.pin(machines - 1);
  g.connect(first, dies);
  return g;
}

int main() {
  const dataflow::Results r = dataflow::run(dying_graph, poc::job_ranks());
  std::printf("not reached: %d\n", r.value<int>("dies"));
  return 0;
}
