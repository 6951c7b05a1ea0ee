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
};

/// Counters of one machine.
struct MachineStats {
  std::uint64_t jobs_run = 0;
  std::uint64_t batches_sent = 0;
  std::uint64_t batches_received = 0;
  std::uint64_t records_received = 0;
  std::uint64_t jobs_stolen = 0;
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
