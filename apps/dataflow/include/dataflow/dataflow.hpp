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
/// dataflow::TaskGraph build(const Problem &p, long n) { ... }
/// int main() {
///   dataflow::Results r = dataflow::run(build, problem, 100, options);
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
#include <dataflow/run_here.hpp>
#include <dataflow/stream_graph.hpp>
#include <dataflow/task_graph.hpp>

#include <tuple>
#include <type_traits>
#include <utility>

namespace dataflow {

/// Runs the graph (a TaskGraph or a StreamGraph) that `build(inputs...)`
/// makes on every machine of the job (one machine per rank; bare, one
/// machine) and returns its results: the outputs no edge consumes, or what
/// the vertices reported.
///
/// `args` are build's arguments, one per parameter, each converted to the
/// parameter's type (`run(build, 100)` calls a `build(const long &)`),
/// then, optionally, how to run: a RunOptions, or the program's
/// CommandLine (`run(build, a, b, line)`: its run_options(); with
/// `--sequential`, the graph runs in this process one job at a time, see
/// run_here.hpp). The arguments must be types the runtime can send; every
/// machine calls `build` with them, so `build` must be a function of this
/// program (not of a shared library).
///
/// Throws node_failure if a node throws (naming it), graph_error if the
/// graph cannot run.
template <class Graph, class... P, class... A>
  requires(sizeof...(A) == sizeof...(P) || sizeof...(A) == sizeof...(P) + 1)
Results run(Graph (*build)(P...), const A &...args) {
  using Input = std::tuple<std::remove_cvref_t<P>...>;
  const auto all = std::forward_as_tuple(args...);
  const Input input = detail::take_arguments<Input>(all, std::make_index_sequence<sizeof...(P)>{});
  if constexpr (sizeof...(A) == sizeof...(P)) {
    return detail::run_on_machines(build, input, RunOptions{});
  } else {
    const auto &how = std::get<sizeof...(P)>(all);
    using How = std::remove_cvref_t<decltype(how)>;
    static_assert(std::is_same_v<How, RunOptions> || std::is_same_v<How, CommandLine>,
                  "dataflow::run(build, arguments..., how): `how` is a dataflow::RunOptions or "
                  "the program's dataflow::CommandLine");
    if constexpr (std::is_same_v<How, CommandLine>) {
      if (how.sequential())
        return run_here(std::apply(build, input));
      return detail::run_on_machines(build, input, how.run_options());
    } else {
      return detail::run_on_machines(build, input, how);
    }
  }
}

} // namespace dataflow
