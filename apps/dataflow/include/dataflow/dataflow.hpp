//===- dataflow/dataflow.hpp - Running dataflow graphs on processes ------===//
///
/// \file
/// The distributed part of the dataflow library, in process-oriented C++
/// (compiled by poc++ with each program): one Scheduler process per
/// machine (rank of the job) receives the batches other machines send it;
/// Worker processes run the machine's ready jobs. `dataflow::run` creates
/// them with `new(poc::rank_machine(m))`, places the graph, runs it and
/// returns its results. docs/dataflow.md describes the model.
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

#include <dataflow/entry.hpp>
#include <dataflow/results.hpp>
#include <dataflow/stream_run.hpp>
#include <dataflow/views.hpp>

#include <poc/machine.hpp>
#include <poc/sync.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <vector>

namespace dataflow {

class Scheduler;

namespace detail {
/// Where a run's nodes or vertices go, given the workers of each machine.
using Placer = std::function<std::vector<Place>(const std::vector<int> &, RunStats &)>;

/// Sends batches with `start` calls to the other machines' schedulers.
class SchedulerTransport : public Transport {
public:
  explicit SchedulerTransport(std::vector<Scheduler *> peers) : peers_(std::move(peers)) {}
  void send(int machine, int from, std::uint64_t sequence, std::vector<std::byte> batch) override;

private:
  std::vector<Scheduler *> peers_;
};
} // namespace detail

/// One per machine: holds the machine's run and applies the batches the
/// other machines send. Its methods are short, so a batch never waits
/// behind a job.
class Scheduler {
public:
  Scheduler() = default;
  ~Scheduler() {
    if (run_id_ != 0)
      detail::unregister_run(run_id_);
  }

  /// This machine's host name and usable cores.
  std::pair<std::string, int> host() const {
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    return {std::string(name), detail::usable_cores()};
  }

  /// Builds this machine's share of run `run_id`.
  void prepare(std::uint64_t run_id, std::vector<Scheduler *> peers, std::uint64_t factory,
               std::uint64_t build, std::vector<std::byte> input, std::vector<std::byte> settings) {
    transport_ = std::make_unique<detail::SchedulerTransport>(std::move(peers));
    auto make = detail::function_from_token<std::remove_pointer_t<MachineRunFactory>>(factory);
    run_ = make(build, input, detail::decode_settings(settings), *transport_);
    run_id_ = run_id;
    detail::register_run(run_id_, run_);
  }
  /// Queues the jobs that need no operand.
  void begin() { run_->begin(); }
  /// Batch `sequence` of those machine `from` sends here. Each of that
  /// machine's workers calls this itself, and the runtime orders only one
  /// caller's calls, so the run puts the batches back in order.
  void deliver(int from, std::uint64_t sequence, std::vector<std::byte> batch) {
    run_->accept(from, sequence, std::move(batch));
  }
  /// Machine 0: the results or the failure.
  std::vector<std::byte> outcome() { return run_->outcome(); }
  /// This machine's counters: jobs run, batches sent and received, records
  /// received, jobs stolen.
  std::vector<std::uint64_t> counters() const {
    const MachineStats s = run_->stats();
    return {s.jobs_run, s.batches_sent, s.batches_received, s.records_received, s.jobs_stolen};
  }
  /// The jobs this machine ran, encoded (with --trace or --stats).
  std::vector<std::byte> records() const { return run_->records(); }
  /// Waits for the batches this scheduler sent.
  void drain() { poc::sync(); }

private:
  std::unique_ptr<detail::SchedulerTransport> transport_;
  std::shared_ptr<MachineRun> run_;
  std::uint64_t run_id_ = 0;
};

/// Runs ready jobs of its machine's run until the run ends.
class Worker {
public:
  Worker() = default;
  void work(std::uint64_t run_id, int index) {
    detail::find_run(run_id)->work(index);
    poc::sync();
  }
};

inline void detail::SchedulerTransport::send(int machine, int from, std::uint64_t sequence,
                                             std::vector<std::byte> batch) {
  start peers_[machine]->deliver(from, sequence, std::move(batch));
}

namespace detail {

/// Creates the schedulers and workers, places the graph (`place`, given the
/// workers of each machine), runs it and returns machine 0's outcome.
inline std::vector<std::byte> launch(std::uint64_t factory, std::uint64_t build,
                                     std::vector<std::byte> input, const RunOptions &options,
                                     const Placer &place, RunStats &stats) {
  const int machines = poc::job_ranks();
  std::vector<Scheduler *> schedulers;
  for (int m = 0; m < machines; ++m)
    schedulers.push_back(new (poc::rank_machine(m)) Scheduler());

  // Workers per machine: the cores of its host shared among the ranks on it.
  std::vector<std::pair<std::string, int>> hosts;
  std::map<std::string, int> ranks_on;
  for (Scheduler *s : schedulers) {
    hosts.push_back(s->host());
    ++ranks_on[hosts.back().first];
  }
  std::vector<int> workers;
  for (const auto &[name, cores] : hosts)
    workers.push_back(options.workers > 0 ? options.workers : std::max(1, cores / ranks_on[name]));

  RunSettings settings;
  settings.scheduling = options.scheduling;
  settings.steal = options.steal;
  settings.record = !options.trace_file.empty() || options.node_stats;
  settings.workers = workers;
  settings.placement = place(workers, stats);
  stats.placement = settings.placement;

  std::random_device entropy;
  const std::uint64_t run_id = (std::uint64_t{entropy()} << 32 | entropy()) | 1;
  for (int m = 0; m < machines; ++m) {
    settings.machine = m;
    schedulers[m]->prepare(run_id, schedulers, factory, build, input, encode_settings(settings));
  }
  std::vector<Worker *> team;
  for (int m = 0; m < machines; ++m)
    for (int w = 0; w < workers[m]; ++w)
      team.push_back(new (poc::rank_machine(m)) Worker());

  const auto started = std::chrono::steady_clock::now();
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
    stats.per_machine.push_back({c[0], c[1], c[2], c[3], c[4]});
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

/// Runs the graph that `build(input)` makes (and `factory` makes on every
/// machine) and reads machine 0's outcome with `read`; shows it as the
/// options ask (--dot, --trace, --stats), even when it failed.
template <class Graph, class Input>
Results run_graph(MachineRunFactory factory, Graph (*build)(const Input &), const Input &input,
                  const RunOptions &options, const GraphView &view, const Placer &place,
                  const std::function<Results(std::span<const std::byte>)> &read) {
  poc::Writer encoded = in_band_writer();
  encoded.write(input);
  RunStats stats;
  const std::vector<std::byte> outcome =
      launch(function_token(factory), function_token(build), encoded.take(), options, place, stats);
  show_run(view, options, stats);
  Results results = read(outcome);
  results.stats() = std::move(stats);
  return results;
}
} // namespace detail

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
