//===- dataflow/run_options.hpp - How a graph runs, and what it cost -----===//
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <dataflow/placement.hpp>

namespace dataflow {

enum class Scheduling : std::uint8_t {
  /// One scheduler per machine with its own ready queue; only edges between
  /// machines send messages (Sucuri's decentralized scheduler).
  distributed,
  /// Every operand goes through the scheduler of machine 0, which
  /// dispatches ready nodes to the machines they are placed on.
  central,
};

struct RunOptions {
  Scheduling scheduling = Scheduling::distributed;
  /// Workers per machine; 0: the machine's cores divided among the ranks
  /// that share them.
  int workers = 0;
  /// Idle machines take ready jobs from busy ones (distributed only).
  bool steal = false;
  /// If set: read the placement from this file if it exists, else place by
  /// list scheduling and write it there.
  std::string allocation_file;
  PlacementCosts costs;
  /// If set: write the graph, placed, as Graphviz DOT (`.svg`/`.png`: run
  /// Graphviz's `dot` on it).
  std::string dot_file;
  /// If set: write a Chrome trace-event JSON of the run.
  std::string trace_file;
  /// Measure every node (RunStats::nodes).
  bool node_stats = false;
  /// When the run ends, print its counters and (with node_stats) the node
  /// table to standard error, as print_stats does (--stats sets both).
  bool print_stats = false;
};

/// Counters of one machine.
struct MachineStats {
  std::uint64_t jobs_run = 0;
  std::uint64_t batches_sent = 0;
  std::uint64_t batches_received = 0;
  std::uint64_t records_received = 0;
  std::uint64_t jobs_stolen = 0;
  /// Jobs whose outputs came from the checkpoint of an earlier deployment.
  std::uint64_t jobs_restored = 0;
  /// Checkpoint records written, the instances they hold, and the
  /// microseconds the machine's checkpoint writer spent writing them.
  std::uint64_t checkpoints = 0;
  std::uint64_t checkpointed = 0;
  std::uint64_t checkpoint_us = 0;
};

/// One instance of a node (a vertex: one job, its start callback or a batch
/// of data), recorded only with RunOptions::trace_file or node_stats.
struct InstanceRecord {
  std::uint32_t node = 0;
  std::uint64_t tag = 0;
  int machine = 0;
  int worker = 0;
  /// Microseconds of the machine's steady clock since it began the run.
  double start_us = 0;
  double duration_us = 0;
  /// Encoded size of the operands (data) it took and made.
  std::uint64_t bytes_in = 0;
  std::uint64_t bytes_out = 0;
  /// Distributed scheduling: the machine it was stolen from, else -1.
  int stolen_from = -1;
  /// Its outputs came from the checkpoint (a re-deploy): it did not run.
  bool restored = false;
  /// Stream graphs: {stream, index of its first datum, count} read from and
  /// written to streams that cross machines.
  std::vector<std::vector<std::uint64_t>> read, written;
};

/// Per node (or vertex), with RunOptions::node_stats.
struct NodeStats {
  std::string name;
  int machine = 0;
  std::uint64_t instances = 0;
  std::uint64_t stolen = 0;
  double total_us = 0;
  std::uint64_t bytes_in = 0;
  std::uint64_t bytes_out = 0;
};

/// What a run cost.
struct RunStats {
  int machines = 0;
  std::vector<int> workers;
  std::vector<MachineStats> per_machine;
  /// Seconds spent placing the graph (list scheduling or reading the file).
  double placement_seconds = 0;
  /// Seconds from the first job to the end of the run.
  double run_seconds = 0;
  /// True if the placement was read from the allocation file.
  bool placement_from_file = false;
  /// The deployment (dataflow-recover): 1, or k + 1 after k failures.
  int attempt = 1;
  /// Instances the checkpoint held when this deployment began (a re-deploy).
  std::uint64_t checkpoint_entries = 0;
  /// When the workers started, in seconds since 1970 (the wall clock, which
  /// a re-deploy's time is measured from a death with).
  double began_at = 0;
  /// Where each node (vertex) was placed.
  std::vector<Place> placement;
  /// Every instance, with RunOptions::trace_file or node_stats.
  std::vector<InstanceRecord> instances;
  /// Per node, with RunOptions::node_stats (print_stats prints them).
  std::vector<NodeStats> nodes;
};

/// Where a run failed and why.
struct Failure {
  std::string where;
  std::string type;
  std::string message;
};

/// A node or vertex threw, or a worker failed: the run stopped. `where()`
/// names it ("node 'block 3,4'"), `type()` is the original exception's
/// type and `message()` its what().
class node_failure : public std::runtime_error {
public:
  explicit node_failure(Failure f);
  const std::string &where() const noexcept { return failure_.where; }
  const std::string &type() const noexcept { return failure_.type; }
  const std::string &message() const noexcept { return failure_.message; }

private:
  Failure failure_;
};

} // namespace dataflow
