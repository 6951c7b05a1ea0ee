//===- semantics.cpp - The dataflow model, checked on every machine count -===//
///
/// Runs small graphs through `dataflow::run` and checks what
/// docs/dataflow.md promises: the firing rule, tag order through a
/// serializer, nodes with several outputs, operands shared by every tag,
/// results in tag order, failures naming the node or vertex, cycles in
/// stream graphs, and graphs that cannot run. Prints "ok <check>" per check
/// and "semantics: all passed" at the end; exits 1 at the first failure.
/// Takes the dataflow programs' options (--scheduler, --steal, ...).
///
//===----------------------------------------------------------------------===//
#include <dataflow/command_line.hpp>
#include <dataflow/dataflow.hpp>

#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

/// The run's options from the command line; with --sequential every check
/// runs its graph in this process (run_here.hpp).
dataflow::CommandLine line("semantics");

[[noreturn]] void fail(const std::string &check, const std::string &why) {
  std::fprintf(stderr, "FAIL %s: %s\n", check.c_str(), why.c_str());
  std::exit(1);
}

void expect(bool ok, const std::string &check, const std::string &why) {
  if (!ok)
    fail(check, why);
}

template <class T> std::string show(const std::vector<T> &v) {
  std::string s;
  for (const T &x : v)
    s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

/// Busy work whose length depends on `tag`, so instances finish out of order.
long spin(long tag) {
  long x = tag;
  for (long i = 0; i < (7 - tag % 7) * 20000; ++i)
    x = (x * 1103515245 + 12345) % 2147483647;
  return x;
}

} // namespace

/// A diamond: the join fires only when all three operands are in, whatever
/// order they arrive in; a node with two outputs feeds two consumers.
dataflow::TaskGraph firing_graph(const int &base) {
  dataflow::TaskGraph g;
  auto split = g.node("split", [base] {
    return dataflow::Outputs<int, std::string>{base, std::to_string(base * 2)};
  });
  auto left = g.node("left", [](int x) {
    spin(3);
    return x + 1;
  });
  auto right = g.node("right", [](const std::string &s) { return std::stoi(s) + 100; });
  auto middle = g.node("middle", [](int x) { return x * 10; });
  auto join = g.node("join", [](int a, int b, int c) { return std::vector<int>{a, b, c}; });
  g.connect(split.output(0), left);
  g.connect(split.output(1), right);
  g.connect(split.output(0), middle);
  g.connect(left, join, 0);
  g.connect(right, join, 1);
  g.connect(middle, join, 2);
  return g;
}

/// A pipeline: a source of 40 values, a per-tag node that takes a shared
/// operand too and finishes out of order, a serializer that must see the
/// tags in order (it records the order it saw), and the per-tag node's
/// values as results.
dataflow::TaskGraph pipeline_graph(const long &count) {
  dataflow::TaskGraph g;
  std::vector<long> values(count);
  std::iota(values.begin(), values.end(), 0);
  auto source = g.source("numbers", values);
  auto offset = g.node("offset", [] { return 1000L; });
  auto work = g.node("work", [](long v, long off) {
    spin(v);
    return v + off;
  });
  auto seen = std::make_shared<std::vector<long>>();
  auto in_order = g.serializer("in order", [seen](long v) {
    seen->push_back(v);
    return *seen;
  });
  auto copy = g.node("copy", [](long v) { return v; });
  g.connect(source, work, 0);
  g.connect(offset, work, 1);
  g.connect(work, in_order);
  g.connect(work, copy);
  return g;
}

/// Operands of the program's own classes (poc++ generates their
/// serializers), also inside a standard container, across machines.
struct Reading {
  std::string sensor;
  std::vector<double> values;
  int id = 0;
};

dataflow::TaskGraph class_graph(const int &sensors) {
  dataflow::TaskGraph g;
  auto make = g.node("make", [sensors] {
    std::vector<Reading> all;
    for (int i = 0; i < sensors; ++i)
      all.push_back({"s" + std::to_string(i), {1.0 * i, 2.0 * i}, i});
    return all;
  });
  auto total = g.node("total", [](const std::vector<Reading> &all) {
    Reading sum{"total", {0, 0}, 0};
    for (const Reading &r : all) {
      sum.values[0] += r.values[0];
      sum.values[1] += r.values[1];
      sum.id += r.id;
    }
    return sum;
  });
  total.pin(poc::job_ranks() - 1);
  g.connect(make, total);
  return g;
}

/// A row of nodes, the outer product of two rows and a join, per tag of a
/// source: row k takes the tag (a port after its index), the columns fire
/// once (their operands are shared by every tag). Built from three
/// arguments, one of them the program's own class.
dataflow::TaskGraph bulk_graph(long n, const std::string &label, const Reading &weights) {
  dataflow::TaskGraph g;
  auto tags = g.source("tags", std::vector<long>{0, 1, 2});
  const auto rows = g.nodes("row", n, [](long k, long tag) { return k + 10 * tag; });
  for (const dataflow::Node &row : rows)
    g.connect(tags, row);
  const auto cols = g.nodes("col", n, [weights](int k) { return weights.values[0] * k; });
  const auto pairs =
      g.nodes("pair", rows, cols, [](long r, double c) { return r * 100 + static_cast<long>(c); });
  g.join("all", pairs, [label](dataflow::Joined<long> values) {
    std::string s = label + " " + std::to_string(values.size()) + ":";
    for (long v : values)
      s += " " + std::to_string(v);
    return s;
  });
  return g;
}

/// A node that throws.
dataflow::TaskGraph failing_graph(const int &at) {
  dataflow::TaskGraph g;
  auto source = g.source("numbers", std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  auto check = g.node("checker", [at](int v) {
    if (v == at)
      throw std::out_of_range("value " + std::to_string(v) + " is out of range");
    return v;
  });
  g.connect(source, check);
  return g;
}

/// Two edges into one port.
dataflow::TaskGraph bad_graph(const int &) {
  dataflow::TaskGraph g;
  auto a = g.node("a", [] { return 1; });
  auto b = g.node("b", [] { return 2; });
  auto c = g.node("c", [](int x) { return x; });
  g.connect(a, c, 0);
  g.connect(b, c, 0);
  return g;
}

/// A ring of three vertices passing a counter round `laps` times: a cycle.
/// Vertex 0 then reports how many times it saw the counter and sends -1
/// round the ring; each vertex closes the stream -1 came on and passes it
/// on, so every stream closes at one of its own ends.
dataflow::StreamGraph ring_graph(const long &laps) {
  dataflow::StreamGraph g;
  auto streams = std::make_shared<std::vector<dataflow::Stream<long>>>();
  std::vector<dataflow::VertexRef> vertices;
  for (int i = 0; i < 3; ++i) {
    vertices.push_back(g.vertex("v" + std::to_string(i), [streams, i](dataflow::Vertex &v) {
      if (i == 0)
        v.write((*streams)[0], 0L);
    }));
    vertices.back().reports<long>();
    g.container({vertices.back()});
  }
  for (int i = 0; i < 3; ++i) {
    auto seen = std::make_shared<long>(0);
    const int next = (i + 1) % 3;
    streams->push_back(
        g.stream<long>(vertices[i], vertices[next],
                       [streams, seen, next, laps](dataflow::Vertex &v, const long &hops) {
                         const auto out = (*streams)[next];
                         if (hops < 0) {
                           v.write(out, -1L);
                           return dataflow::Signal::close;
                         }
                         ++*seen;
                         if (hops + 1 == 3 * laps) {
                           v.report(*seen);
                           v.write(out, -1L);
                           return dataflow::Signal::close;
                         }
                         v.write(out, hops + 1);
                         return dataflow::Signal::keep;
                       }));
  }
  return g;
}

/// A vertex that throws in its start callback.
dataflow::StreamGraph failing_stream_graph(const int &) {
  dataflow::StreamGraph g;
  auto a = g.vertex("sender", [](dataflow::Vertex &) {});
  auto b = g.vertex("exploder", [](dataflow::Vertex &) {
    throw std::logic_error("the exploder does not start");
  });
  g.stream<int>(a, b, [](dataflow::Vertex &, const int &) { return dataflow::Signal::keep; });
  g.container({a});
  g.container({b});
  return g;
}

/// A vertex that reports an int, though it declared long, and one that
/// declared nothing.
dataflow::StreamGraph misreporting_graph(const bool &declared) {
  dataflow::StreamGraph g;
  auto a = g.vertex("counter", [](dataflow::Vertex &v) { v.report(1); });
  if (declared)
    a.reports<long>();
  return g;
}

void check_firing() {
  const dataflow::Results r = dataflow::run(firing_graph, 4, line);
  const auto join = r.value<std::vector<int>>("join");
  expect(join == std::vector<int>{5, 108, 40}, "firing rule", "join got " + show(join));
  // The graph's one result, unnamed.
  expect(r.value<std::vector<int>>() == join, "the one result", "another value");
  // --sequential ran no Scheduler process (no machine's counters).
  expect(r.stats().per_machine.empty() == line.sequential(), "sequential run",
         std::to_string(r.stats().per_machine.size()) + " machines' counters");
  std::printf("ok firing rule and several outputs\n");
}

void check_pipeline() {
  const long count = 40;
  const dataflow::Results r = dataflow::run(pipeline_graph, count, line);
  const auto order = r.values<std::vector<long>>("in order");
  expect(static_cast<long>(order.size()) == count, "serializer",
         std::to_string(order.size()) + " results");
  std::vector<long> expected(count);
  std::iota(expected.begin(), expected.end(), 1000);
  expect(order.back() == expected, "serializer", "saw tags in the order " + show(order.back()));
  const auto copies = r.values<long>("copy");
  expect(copies == expected, "results in tag order", "got " + show(copies));
  std::printf("ok serializer in tag order, shared operand, results in tag order\n");
}

void check_classes() {
  const Reading sum = dataflow::run(class_graph, 5, line).value<Reading>("total");
  expect(sum.sensor == "total" && sum.values == std::vector<double>{10, 20} && sum.id == 10,
         "class operands", sum.sensor + " " + std::to_string(sum.id));
  std::printf("ok operands of the program's own classes\n");
}

void check_bulk() {
  const Reading weights{"w", {2, 0}, 0};
  const auto all = dataflow::run(bulk_graph, 2, "x", weights, line).values<std::string>("all");
  const std::vector<std::string> expected{"x 4: 0 2 100 102", "x 4: 1000 1002 1100 1102",
                                          "x 4: 2000 2002 2100 2102"};
  expect(all == expected, "rows, pairs and joins",
         all.size() == 3 ? all[0] + " | " + all[1] + " | " + all[2]
                         : std::to_string(all.size()) + " values");
  std::printf("ok rows of nodes, outer products and joins per tag, three arguments\n");
}

void check_failure() {
  try {
    dataflow::run(failing_graph, 5, line);
    fail("node failure", "the run did not throw");
  } catch (const dataflow::node_failure &e) {
    expect(e.where() == "node 'checker'", "node failure", "where: " + e.where());
    expect(e.type() == "std::out_of_range", "node failure", "type: " + e.type());
    expect(e.message() == "value 5 is out of range", "node failure", "message: " + e.message());
  }
  std::printf("ok node failure names the node, type and message\n");
}

void check_bad_graph() {
  try {
    dataflow::run(bad_graph, 0, line);
    fail("bad graph", "the run did not throw");
  } catch (const dataflow::graph_error &e) {
    expect(std::string(e.what()) == "input 0 of node 'c' has two edges (from 'a' and 'b')",
           "bad graph", e.what());
  }
  std::printf("ok a graph that cannot run is refused\n");
}

void check_wrong_result_type() {
  const dataflow::Results r = dataflow::run(firing_graph, 1, line);
  try {
    r.value<double>("join");
    fail("result type", "no error");
  } catch (const dataflow::graph_error &e) {
    expect(std::string(e.what()).find("are std::vector<int") != std::string::npos, "result type",
           e.what());
  }
  std::printf("ok results asked for with the wrong type are refused\n");
}

void check_ring() {
  const long laps = 50;
  const dataflow::Results r = dataflow::run(ring_graph, laps, line);
  const long closer = r.value<long>("v0");
  expect(r.count("v1") == 0 && r.count("v2") == 0 && closer == laps, "stream cycle",
         "v0 reported " + std::to_string(closer));
  std::printf("ok a cycle of streams runs until its streams close\n");
}

void check_stream_failure() {
  try {
    dataflow::run(failing_stream_graph, 0, line);
    fail("vertex failure", "the run did not throw");
  } catch (const dataflow::node_failure &e) {
    expect(e.where() == "vertex 'exploder'" && e.type() == "std::logic_error" &&
               e.message() == "the exploder does not start",
           "vertex failure", e.what());
  }
  std::printf("ok vertex failure names the vertex\n");
}

void check_report_type() {
  const char *expected[] = {
      "vertex 'counter' reports a value of type int, but declared no reports (call "
      "reports<int>() on it)",
      "vertex 'counter' reports a value of type int, but declared reports<long>()"};
  for (bool declared : {false, true})
    try {
      dataflow::run(misreporting_graph, declared, line);
      fail("report type", "the run did not throw");
    } catch (const dataflow::node_failure &e) {
      expect(e.where() == "vertex 'counter'" && e.type() == "dataflow::graph_error" &&
                 e.message() == expected[declared],
             "report type", e.what());
    }
  std::printf("ok a report of another type than declared names both types\n");
}

int main(int argc, char **argv) {
  return dataflow::program_main(line, argc, argv, [&](const std::vector<std::string> &) {
    check_firing();
    check_pipeline();
    check_classes();
    check_bulk();
    check_failure();
    check_bad_graph();
    check_wrong_result_type();
    check_ring();
    check_stream_failure();
    check_report_type();
    // A run after failed runs works as the first did.
    check_firing();
    std::printf("semantics: all passed\n");
  });
}
