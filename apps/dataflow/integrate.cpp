//===- integrate.cpp - dataflow-integrate: numerical integration ---------===//
///
/// dataflow-integrate [--variant fork-join|pipeline] [--chunks K] [--points N]
///
/// The integral of f(x) = 4 / (1 + x^2) * (1 + sin(8x)^2 / 16) over [0, 1]
/// by the midpoint rule with N points, split into K chunks (Sucuri's two
/// integration programs: Silva et al. 2016, section IV):
///  - fork-join: one node per chunk, all roots, joined by a node that adds
///    their results;
///  - pipeline: a source emits the chunks, one integrate node fires per
///    chunk (instances run concurrently), a serializer passes the partial
///    sums on in chunk order.
/// Prints the integral.
///
//===----------------------------------------------------------------------===//
#include <dataflow/dataflow.hpp>

#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>

namespace {

struct IntegrationProblem {
  std::string variant = "fork-join";
  long chunks = 0, points = 0;
  /// The first point of chunk c.
  long first(long c) const { return points / chunks * c + std::min(c, points % chunks); }
};

/// The midpoint rule over points [begin, end) of `points` on [0, 1].
double integrate(long begin, long end, long points) {
  const double h = 1.0 / static_cast<double>(points);
  double sum = 0;
  for (long i = begin; i < end; ++i) {
    const double x = (static_cast<double>(i) + 0.5) * h;
    const double s = std::sin(8 * x);
    sum += 4.0 / (1.0 + x * x) * (1.0 + s * s / 16.0);
  }
  return sum * h;
}

} // namespace

dataflow::TaskGraph integration_graph(const IntegrationProblem &p) {
  dataflow::TaskGraph g;
  const long points = p.points;
  if (p.variant == "fork-join") {
    const auto chunks = g.nodes(
        "chunk", p.chunks, [=](long c) { return integrate(p.first(c), p.first(c + 1), points); });
    // Added up in chunk order, as the sequential version does.
    g.join("integral", chunks, [](dataflow::Joined<double> partials) {
      return std::accumulate(partials.begin(), partials.end(), 0.0);
    });
    return g;
  }
  std::vector<std::pair<long, long>> ranges;
  for (long c = 0; c < p.chunks; ++c)
    ranges.emplace_back(p.first(c), p.first(c + 1));
  auto read = g.source("read", ranges);
  auto work = g.node("integrate", [points](const std::pair<long, long> &range) {
    return integrate(range.first, range.second, points);
  });
  g.connect(read, work);
  g.serializer("write", {work}, [](double partial) { return partial; });
  return g;
}

int main(int argc, char **argv) {
  IntegrationProblem p;
  p.chunks = 64;
  p.points = 100'000'000;
  dataflow::CommandLine line("dataflow-integrate");
  line.option("--variant", "fork-join (default) or pipeline", [&](const std::string &v) {
    if (v != "fork-join" && v != "pipeline")
      throw dataflow::usage_error("--variant needs fork-join or pipeline, got '" + v + "'");
    p.variant = v;
  });
  line.option("--chunks", "K: pieces of the interval (default 64)", p.chunks, 1);
  line.option("--points", "N: midpoints (default 100000000)", p.points, 1);
  return dataflow::program_main(line, argc, argv, [&](const std::vector<std::string> &) {
    if (p.chunks > p.points)
      throw dataflow::usage_error("--chunks must not exceed --points");
    double integral = 0;
    if (line.sequential()) {
      for (long c = 0; c < p.chunks; ++c)
        integral += integrate(p.first(c), p.first(c + 1), p.points);
    } else {
      const dataflow::Results r = dataflow::run(integration_graph, p, line);
      if (p.variant == "fork-join")
        integral = r.value<double>("integral");
      else
        for (double partial : r.values<double>("write"))
          integral += partial;
    }
    std::printf("integral: %.15f\n", integral);
  });
}
