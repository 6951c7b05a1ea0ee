//===- run_here.cpp - A graph run in this process, one job at a time -----===//
#include <dataflow/run_here.hpp>

#include <dataflow/stream_run.hpp>
#include <dataflow/task_run.hpp>

#include <fmt/format.h>

#include <chrono>
#include <memory>

namespace dataflow {

namespace {

/// A run on one machine never sends a batch.
class NoTransport final : public Transport {
public:
  void send(int machine, int, std::uint64_t, std::vector<std::byte>) override {
    throw std::logic_error(
        fmt::format("dataflow: a run in one process sent a batch to machine {}", machine));
  }
};

/// Runs `graph` as machine 0 of 1 with one worker, this thread, and
/// returns the outcome; `places` is its node (vertex) count.
template <class Run, class Graph>
std::vector<std::byte> outcome_here(const Graph &graph, std::size_t places, RunStats &stats) {
  RunSettings settings;
  settings.workers = {1};
  settings.placement.assign(places, Place{0, 0});
  NoTransport transport;
  Run run(std::make_shared<const Graph>(graph), settings, transport);
  const auto started = std::chrono::steady_clock::now();
  run.begin();
  run.work(0);
  stats.run_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  stats.machines = 1;
  stats.workers = settings.workers;
  stats.placement = settings.placement;
  return run.outcome();
}

} // namespace

Results run_here(const TaskGraph &graph) {
  const GraphShape shape = GraphShape::of(graph);
  RunStats stats;
  Results r = read_task_results(graph, shape, outcome_here<TaskRun>(graph, graph.size(), stats));
  r.stats() = std::move(stats);
  return r;
}

Results run_here(const StreamGraph &graph) {
  graph.check();
  RunStats stats;
  Results r =
      read_stream_results(graph, outcome_here<StreamRun>(graph, graph.place({1}).size(), stats));
  r.stats() = std::move(stats);
  return r;
}

} // namespace dataflow
