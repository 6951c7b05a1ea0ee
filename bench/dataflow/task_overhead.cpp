//===- task_overhead.cpp - What an empty dataflow node costs -------------===//
///
/// task-overhead [--workers N] [--length L] [--messages M] [--rounds R]
///
/// Three graphs of empty nodes on one machine (or across the job's
/// machines), each timed from the first job to the end of the run (the
/// processes are made before): a chain of L nodes that M tagged messages
/// flow through; a fan-out of one source value to 64 nodes, R times; one
/// message hopping through a chain of L nodes that each fire once. Prints
/// microseconds per task. bench/dataflow/tbb_overhead.cpp is the baseline.
///
//===----------------------------------------------------------------------===//
#include <dataflow/command_line.hpp>
#include <dataflow/dataflow.hpp>

#include <cstdio>
#include <numeric>

struct Shape {
  std::string kind;
  long length = 0, messages = 0;
  void poc_write(poc::Writer &w) const { w.write_all(kind, length, messages); }
  void poc_read(poc::Reader &r) { r.read_all(kind, length, messages); }
};

dataflow::TaskGraph overhead_graph(const Shape &s) {
  dataflow::TaskGraph g;
  if (s.kind == "serial hop") {
    dataflow::Node previous = g.node("n0", [] { return 0; });
    for (long i = 1; i < s.length; ++i) {
      dataflow::Node next = g.node("n" + std::to_string(i), [](int x) { return x; });
      g.connect(previous, next);
      previous = next;
    }
    g.connect(previous, g.node("end", [](int) {}));
    return g;
  }
  std::vector<int> values(s.messages);
  std::iota(values.begin(), values.end(), 0);
  dataflow::Node source = g.source("source", values);
  if (s.kind == "chain") {
    dataflow::Node previous = source;
    for (long i = 1; i < s.length; ++i) {
      dataflow::Node next = g.node("n" + std::to_string(i), [](int x) { return x; });
      g.connect(previous, next);
      previous = next;
    }
    g.connect(previous, g.node("end", [](int) {}));
  } else {
    for (int i = 0; i < 64; ++i)
      g.connect(source, g.node("leaf " + std::to_string(i), [](int) {}));
  }
  return g;
}

int main(int argc, char **argv) {
  long length = 10000, messages = 2000, rounds = 2000, repeats = 5;
  dataflow::CommandLine line("task-overhead", "");
  line.option("--length", "L: nodes in a chain (default 10000)", length, 2);
  line.option("--messages", "M: messages through the chain (default 2000)", messages, 1);
  line.option("--rounds", "R: source values fanned out to 64 nodes (default 2000)", rounds, 1);
  line.option("--repeats", "best of this many runs (default 5)", repeats, 1);
  return dataflow::program_main(line, argc, argv, [&](const std::vector<std::string> &) {
    const Shape shapes[] = {
        {"chain", 20, messages}, {"fan-out 64", 0, rounds}, {"serial hop", length, 0}};
    for (const Shape &s : shapes) {
      const double tasks = s.kind == "chain"        ? double(s.length) * double(s.messages)
                           : s.kind == "serial hop" ? double(s.length)
                                                    : 64.0 * double(s.messages);
      double best = 1e30;
      for (long r = 0; r < repeats; ++r)
        best = std::min(best,
                        dataflow::run(overhead_graph, s, line.run_options()).stats().run_seconds);
      std::printf("%-12s %10.0f tasks %9.3f us/task\n", s.kind.c_str(), tasks, best / tasks * 1e6);
    }
  });
}
