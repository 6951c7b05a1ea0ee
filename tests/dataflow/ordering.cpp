//===- ordering.cpp - The orders docs/dataflow.md promises, on any workers -===//
///
/// Stream graphs whose vertices sit in different containers, so that with
/// two or more machines their data and reports cross machines, run with
/// any number of workers per machine (`--workers`):
///  * reports: A writes 0..N-1 to B, which reports each value; `run` must
///    return B's reports in the order B made them;
///  * chain: T -> A -> C, A forwarding each value; C must receive 0..N-1
///    in order (one stream's data arrive in the order written);
///  * loop: a feedback loop that keeps W values in flight (M -> E -> M, E
///    echoing); M checks that the echoes come back in the order it sent.
/// Prints "ok <check>" per check and "ordering: all passed"; exits 1 at the
/// first value out of place, naming its position.
///
//===----------------------------------------------------------------------===//
#include <dataflow/command_line.hpp>
#include <dataflow/dataflow.hpp>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string &check, const std::string &why) {
  std::fprintf(stderr, "FAIL %s: %s\n", check.c_str(), why.c_str());
  std::exit(1);
}

/// Throws if `x` is not the value expected at position `*next`, then
/// advances it: a vertex's check of the order its data arrive in.
void expect_next(long x, long &next) {
  if (x != next)
    throw std::logic_error("position " + std::to_string(next) + " received " + std::to_string(x));
  ++next;
}

} // namespace

/// A (one container) writes 0..n-1 to B (another), which reports each one.
dataflow::StreamGraph reports_graph(const long &n) {
  dataflow::StreamGraph g;
  auto ab = std::make_shared<dataflow::Stream<long>>();
  auto a = g.vertex("A", [ab, n](dataflow::Vertex &v) {
    for (long i = 0; i < n; ++i)
      v.write(*ab, i);
  });
  auto b = g.vertex("B");
  b.reports<long>();
  auto seen = std::make_shared<long>(0);
  *ab = g.stream<long>(a, b, [seen, n](dataflow::Vertex &v, const long &x) {
    v.report(x);
    return ++*seen == n ? dataflow::Signal::close : dataflow::Signal::keep;
  });
  g.container({a});
  g.container({b});
  return g;
}

/// T -> A -> C, each in its own container; A forwards what it receives and
/// C checks that it arrives in order.
dataflow::StreamGraph chain_graph(const long &n) {
  dataflow::StreamGraph g;
  auto ta = std::make_shared<dataflow::Stream<long>>();
  auto ac = std::make_shared<dataflow::Stream<long>>();
  auto t = g.vertex("T", [ta, n](dataflow::Vertex &v) {
    for (long i = 0; i < n; ++i)
      v.write(*ta, i);
  });
  auto a = g.vertex("A");
  auto c = g.vertex("C");
  c.reports<long>();
  auto forwarded = std::make_shared<long>(0);
  *ta = g.stream<long>(t, a, [ac, forwarded, n](dataflow::Vertex &v, const long &x) {
    expect_next(x, *forwarded);
    v.write(*ac, x);
    return *forwarded == n ? dataflow::Signal::close : dataflow::Signal::keep;
  });
  auto received = std::make_shared<long>(0);
  *ac = g.stream<long>(a, c, [received, n](dataflow::Vertex &v, const long &x) {
    expect_next(x, *received);
    if (*received < n)
      return dataflow::Signal::keep;
    v.report(*received);
    return dataflow::Signal::close;
  });
  g.container({t});
  g.container({a});
  g.container({c});
  return g;
}

/// M keeps `window` values in flight to E, which echoes each one back; M
/// checks the echoes' order and sends the next value for each, up to n.
dataflow::StreamGraph loop_graph(const long &n) {
  constexpr long window = 64;
  dataflow::StreamGraph g;
  auto out = std::make_shared<dataflow::Stream<long>>();
  auto back = std::make_shared<dataflow::Stream<long>>();
  auto m = g.vertex("M", [out, n](dataflow::Vertex &v) {
    for (long i = 0; i < window && i < n; ++i)
      v.write(*out, i);
  });
  auto e = g.vertex("E");
  m.reports<long>();
  *out = g.stream<long>(m, e, [back](dataflow::Vertex &v, const long &x) {
    v.write(*back, x);
    return dataflow::Signal::keep;
  });
  auto echoed = std::make_shared<long>(0);
  *back = g.stream<long>(e, m, [out, echoed, n](dataflow::Vertex &v, const long &x) {
    expect_next(x, *echoed);
    if (x + window < n)
      v.write(*out, x + window);
    if (*echoed < n)
      return dataflow::Signal::keep;
    v.report(*echoed);
    v.close(*out);
    return dataflow::Signal::close;
  });
  g.container({m});
  g.container({e});
  return g;
}

int main(int argc, char **argv) {
  long n = 20000;
  dataflow::CommandLine line("ordering", "");
  line.option("--count", "N: values per check (default 20000)", n, 1);
  return dataflow::program_main(line, argc, argv, [&](const std::vector<std::string> &) {
    const dataflow::RunOptions &options = line.run_options();
    try {
      const std::vector<long> reports = dataflow::run(reports_graph, n, options).values<long>("B");
      if (static_cast<long>(reports.size()) != n)
        fail("reports", "B reported " + std::to_string(reports.size()) + " values");
      for (long i = 0; i < n; ++i)
        if (reports[i] != i)
          fail("reports", "position " + std::to_string(i) + " holds " + std::to_string(reports[i]));
      std::printf("ok reports come back in the order the vertex made them\n");

      if (dataflow::run(chain_graph, n, options).value<long>("C") != n)
        fail("chain", "C did not receive every value");
      std::printf("ok data on one stream arrive in the order written, through a forwarder\n");

      if (dataflow::run(loop_graph, n, options).value<long>("M") != n)
        fail("loop", "M did not receive every echo");
      std::printf("ok a feedback loop's echoes come back in order\n");
    } catch (const dataflow::node_failure &e) {
      fail(e.where(), e.message());
    }
    std::printf("ordering: all passed\n");
  });
}
