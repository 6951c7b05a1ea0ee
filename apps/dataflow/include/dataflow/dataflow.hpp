//===- dataflow/dataflow.hpp - Dataflow graphs on processes: run ---------===//
///
/// \file
/// What a dataflow program includes: task graphs (`TaskGraph`, `Grid`),
/// stream graphs (`StreamGraph`), `dataflow::run`, its `Results`, and the
/// programs' command line (`CommandLine`, `program_main`). `run` places the
/// graph and runs it on Scheduler and Worker processes (launch.hpp,
/// scheduler.hpp, worker.hpp), compiled by poc++ with the program.
/// docs/dataflow.md describes the model.
///
/// ```c++
/// dataflow::TaskGraph build(const Problem &p) { ... }
/// int main() {
///   dataflow::Results r = dataflow::run(build, problem, options);
///   std::printf("%d\n", r.value<int>("last"));
/// }
/// ```
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/command_line.hpp>
#include <dataflow/grid.hpp>
#include <dataflow/launch.hpp>
#include <dataflow/results.hpp>
#include <dataflow/stream_graph.hpp>
#include <dataflow/task_graph.hpp>

#include <span>
#include <type_traits>
#include <vector>

namespace dataflow {

/// Runs the task graph that `build(input)` makes on every machine of the
/// job (one machine per rank; bare, one machine) and returns its results.
/// Throws node_failure if a node throws (naming it), graph_error if the
/// graph cannot run. `build` must be a function of this program (not of a
/// shared library); `Input` any type the runtime can send. `input`
/// converts to `Input` (`run(build, 100)` with `build(const long &)`).
template <class Input>
Results run(TaskGraph (*build)(const Input &), const std::type_identity_t<Input> &input,
            const RunOptions &options = {}) {
  const TaskGraph graph = build(input);
  // A graph that cannot run fails here, before any process starts.
  const GraphShape shape = GraphShape::of(graph);
  check_dot_available(options.dot_file);
  return detail::run_graph(
      &detail::make_run<TaskRun, TaskGraph, Input>, build, input, options,
      GraphView::of(graph, shape),
      [&](const std::vector<int> &workers, RunStats &stats) {
        return detail::place_task_graph(graph, shape, options, workers, stats);
      },
      [&](std::span<const std::byte> outcome) { return read_task_results(graph, shape, outcome); });
}

/// Runs the stream graph that `build(input)` makes on every machine; it
/// ends when every stream is closed. Returns what the vertices reported.
template <class Input>
Results run(StreamGraph (*build)(const Input &), const std::type_identity_t<Input> &input,
            const RunOptions &options = {}) {
  const StreamGraph graph = build(input);
  graph.check();
  check_dot_available(options.dot_file);
  return detail::run_graph(
      &detail::make_run<StreamRun, StreamGraph, Input>, build, input, options, GraphView::of(graph),
      [&](const std::vector<int> &workers, RunStats &) { return graph.place(workers); },
      [&](std::span<const std::byte> outcome) { return read_stream_results(graph, outcome); });
}

} // namespace dataflow
