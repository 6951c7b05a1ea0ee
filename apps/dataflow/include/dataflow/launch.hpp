//===- dataflow/launch.hpp - Starting a run on the machines' processes ---===//
///
/// \file
/// How `dataflow::run` runs a graph: it creates a Scheduler process per
/// machine with `new(poc::rank_machine(m))`, counts the workers each
/// machine gets, places the graph, hands every scheduler its settings,
/// creates the Worker processes and starts them, waits for the end, reads
/// machine 0's outcome and deletes the processes. Compiled by poc++ with
/// each program.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/results.hpp>
#include <dataflow/scheduler.hpp>
#include <dataflow/views.hpp>
#include <dataflow/worker.hpp>

#include <poc/machine.hpp>
#include <poc/sync.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// Two namespace blocks, not `namespace dataflow::detail`: poc++ closes the
// namespaces around the code it inserts one block at a time.
namespace dataflow {
namespace detail {

/// Where a run's nodes or vertices go, given the workers of each machine.
using Placer = std::function<std::vector<Place>(const std::vector<int> &, RunStats &)>;

/// Workers per machine: `options.workers`, or the cores of each machine's
/// host shared among the ranks on it.
inline std::vector<int> count_workers(const std::vector<Scheduler *> &schedulers,
                                      const RunOptions &options) {
  std::vector<std::pair<std::string, int>> hosts;
  std::map<std::string, int> ranks_on;
  for (Scheduler *s : schedulers) {
    hosts.push_back(s->host());
    ++ranks_on[hosts.back().first];
  }
  std::vector<int> workers;
  for (const auto &[name, cores] : hosts)
    workers.push_back(options.workers > 0 ? options.workers : std::max(1, cores / ranks_on[name]));
  return workers;
}

/// Creates the schedulers and workers, places the graph (`place`, given the
/// workers of each machine), runs it and returns machine 0's outcome. A
/// re-deploy (`recovery`) first reads the checkpoint, so one that does not
/// verify stops the run before any process starts, and hands each machine
/// the checkpointed instances of its nodes.
inline std::vector<std::byte> launch(std::uint64_t factory, std::uint64_t build,
                                     std::vector<std::byte> input, const RunOptions &options,
                                     const RecoverySettings &recovery, std::size_t nodes,
                                     const Placer &place, RunStats &stats) {
  std::vector<CheckpointEntry> checkpointed;
  if (recovery.enabled() && recovery.attempt > 1)
    checkpointed = load_checkpoint(recovery, nodes);
  stats.attempt = recovery.attempt;
  stats.checkpoint_entries = checkpointed.size();

  const int machines = poc::job_ranks();
  std::vector<Scheduler *> schedulers;
  for (int m = 0; m < machines; ++m)
    schedulers.push_back(new (poc::rank_machine(m)) Scheduler());
  const std::vector<int> workers = count_workers(schedulers, options);

  RunSettings settings;
  settings.scheduling = options.scheduling;
  settings.steal = options.steal;
  settings.record = !options.trace_file.empty() || options.node_stats;
  settings.workers = workers;
  settings.placement = place(workers, stats);
  stats.placement = settings.placement;
  settings.recovery = recovery;
  std::vector<std::vector<CheckpointEntry>> restored(machines);
  for (CheckpointEntry &e : checkpointed)
    restored.at(settings.placement.at(e.node).machine).push_back(std::move(e));

  std::random_device entropy;
  const std::uint64_t run_id = (std::uint64_t{entropy()} << 32 | entropy()) | 1;
  for (int m = 0; m < machines; ++m) {
    settings.machine = m;
    settings.restored = encode_restored(restored[m]);
    schedulers[m]->prepare(run_id, schedulers, factory, build, input, encode_settings(settings));
  }
  std::vector<Worker *> team;
  for (int m = 0; m < machines; ++m)
    for (int w = 0; w < workers[m]; ++w)
      team.push_back(new (poc::rank_machine(m)) Worker());

  const auto started = std::chrono::steady_clock::now();
  stats.began_at =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  for (Scheduler *s : schedulers)
    s->begin();
  std::size_t next = 0;
  for (int m = 0; m < machines; ++m)
    for (int w = 0; w < workers[m]; ++w)
      start team[next++]->work(run_id, w);
  poc::sync();
  stats.run_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  std::vector<std::byte> outcome = schedulers[0]->outcome();
  stats.machines = machines;
  stats.workers = workers;
  for (Scheduler *s : schedulers) {
    s->drain();
    const std::vector<std::uint64_t> c = s->counters();
    stats.per_machine.push_back({c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]});
    if (settings.record)
      read_records(s->records(), stats.instances);
  }
  for (Worker *w : team)
    delete w;
  for (Scheduler *s : schedulers)
    delete s;
  return outcome;
}

/// Places a task graph: from the allocation file if it exists, else by
/// list scheduling (written to the file if one is named).
inline std::vector<Place> place_task_graph(const TaskGraph &graph, const GraphShape &shape,
                                           const RunOptions &options,
                                           const std::vector<int> &workers, RunStats &stats) {
  const auto started = std::chrono::steady_clock::now();
  std::vector<Place> places;
  if (!options.allocation_file.empty() && std::filesystem::exists(options.allocation_file)) {
    places = read_allocation(options.allocation_file, graph, workers);
    stats.placement_from_file = true;
  } else {
    places = list_schedule(graph, shape, workers, options.costs);
    if (!options.allocation_file.empty())
      write_allocation(options.allocation_file, graph, places, workers);
  }
  stats.placement_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return places;
}

/// The launcher's settings (dataflow-recover), for the graph that the
/// program's function `build` makes from `arguments`, whose nodes (or
/// vertices) are `names`: they and the function identify its checkpoints.
inline RecoverySettings recovery_settings(std::uint64_t build, std::span<const std::byte> arguments,
                                          const std::vector<std::string> &names) {
  RecoverySettings recovery = RecoverySettings::from_environment();
  std::uint64_t hash = fingerprint(std::as_bytes(std::span(&build, 1)));
  hash = fingerprint(arguments, hash);
  for (const std::string &name : names)
    hash = fingerprint(std::as_bytes(std::span(name.data(), name.size() + 1)), hash);
  recovery.graph = hash;
  return recovery;
}

/// Runs the graph that `build` makes from the arguments `input` (a tuple;
/// `factory` makes it on every machine) and reads machine 0's outcome with
/// `read`; shows it as the options ask (--dot, --trace, --stats), even when
/// it failed.
template <class Build, class Input>
Results run_graph(MachineRunFactory factory, Build *build, const Input &input,
                  const RunOptions &options, const GraphView &view, const Placer &place,
                  const std::function<Results(std::span<const std::byte>)> &read) {
  poc::Writer encoded = in_band_writer();
  write_arguments(encoded, input, std::make_index_sequence<std::tuple_size_v<Input>>{});
  RunStats stats;
  const std::vector<std::byte> arguments = encoded.take();
  const RecoverySettings recovery = recovery_settings(function_token(build), arguments, view.names);
  const std::vector<std::byte> outcome =
      launch(function_token(factory), function_token(build), arguments, options, recovery,
             view.names.size(), place, stats);
  show_run(view, options, stats);
  Results results = read(outcome);
  results.stats() = std::move(stats);
  return results;
}

/// The first `sizeof...(I)` of `all` as the tuple `Input` (each converted).
template <class Input, class All, std::size_t... I>
Input take_arguments(const All &all, std::index_sequence<I...>) {
  return Input(std::get<I>(all)...);
}

/// Runs the task graph that `build(input...)` makes on the machines.
template <class... P>
Results run_on_machines(TaskGraph (*build)(P...),
                        const std::tuple<std::remove_cvref_t<P>...> &input,
                        const RunOptions &options) {
  const TaskGraph graph = std::apply(build, input);
  // A graph that cannot run fails here, before any process starts.
  const GraphShape shape = GraphShape::of(graph);
  check_dot_available(options.dot_file);
  return run_graph(
      &make_run<TaskRun, TaskGraph, P...>, build, input, options, GraphView::of(graph, shape),
      [&](const std::vector<int> &workers, RunStats &stats) {
        return place_task_graph(graph, shape, options, workers, stats);
      },
      [&](std::span<const std::byte> outcome) { return read_task_results(graph, shape, outcome); });
}

/// Runs the stream graph that `build(input...)` makes on the machines.
template <class... P>
Results run_on_machines(StreamGraph (*build)(P...),
                        const std::tuple<std::remove_cvref_t<P>...> &input,
                        const RunOptions &options) {
  const StreamGraph graph = std::apply(build, input);
  graph.check();
  check_dot_available(options.dot_file);
  return run_graph(
      &make_run<StreamRun, StreamGraph, P...>, build, input, options, GraphView::of(graph),
      [&](const std::vector<int> &workers, RunStats &) { return graph.place(workers); },
      [&](std::span<const std::byte> outcome) { return read_stream_results(graph, outcome); });
}
} // namespace detail
} // namespace dataflow
