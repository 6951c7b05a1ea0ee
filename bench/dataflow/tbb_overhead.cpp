//===- tbb_overhead.cpp - The baseline: TBB's flow graph -----------------===//
///
/// tbb-overhead [THREADS]: the three graphs of task-overhead.cpp as TBB
/// flow graphs of empty function nodes: 20 nodes that 2000 messages flow
/// through; a broadcast to 64 nodes, 2000 times; one message through a
/// chain of 10000 serial nodes. Prints microseconds per task, best of 5.
///
//===----------------------------------------------------------------------===//
#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <vector>

namespace flow = oneapi::tbb::flow;

namespace {

double seconds(const std::function<void()> &f) {
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

using Node = flow::function_node<int, int>;

double chain(long length, long messages, std::size_t concurrency) {
  return seconds([&] {
    flow::graph g;
    std::vector<std::unique_ptr<Node>> nodes;
    for (long i = 0; i < length; ++i) {
      nodes.push_back(std::make_unique<Node>(g, concurrency, [](int x) { return x; }));
      if (i > 0)
        flow::make_edge(*nodes[i - 1], *nodes[i]);
    }
    for (long m = 0; m < messages; ++m)
      nodes.front()->try_put(static_cast<int>(m));
    g.wait_for_all();
  });
}

double fan_out(long rounds) {
  return seconds([&] {
    flow::graph g;
    flow::broadcast_node<int> source(g);
    std::vector<std::unique_ptr<Node>> leaves;
    for (int i = 0; i < 64; ++i) {
      leaves.push_back(std::make_unique<Node>(g, flow::unlimited, [](int x) { return x; }));
      flow::make_edge(source, *leaves.back());
    }
    for (long r = 0; r < rounds; ++r)
      source.try_put(static_cast<int>(r));
    g.wait_for_all();
  });
}

} // namespace

int main(int argc, char **argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
  oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism, threads);
  const long messages = 2000, rounds = 2000, length = 10000;
  std::printf("%-12s %10.0f tasks %9.3f us/task\n", "chain", 20.0 * messages,
              chain(20, messages, flow::unlimited) / (20.0 * messages) * 1e6);
  std::printf("%-12s %10.0f tasks %9.3f us/task\n", "fan-out 64", 64.0 * rounds,
              fan_out(rounds) / (64.0 * rounds) * 1e6);
  std::printf("%-12s %10.0f tasks %9.3f us/task\n", "serial hop", double(length),
              chain(length, 1, flow::serial) / double(length) * 1e6);
}
