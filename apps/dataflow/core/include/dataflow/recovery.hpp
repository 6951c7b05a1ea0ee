//===- dataflow/recovery.hpp - Checkpoints for a re-deployed run ---------===//
///
/// \file
/// A run launched by `dataflow-recover` (docs/dataflow.md, "Failures")
/// writes checkpoints, and a run that the launcher re-deploys after a
/// machine died reads them, so that it executes again only what was lost.
///
/// The launcher speaks to the library through the environment of every
/// rank: `POC_DATAFLOW_CHECKPOINT` (the directory, a persistence store of
/// the launch's own), `POC_DATAFLOW_CHECKPOINT_INTERVAL` (seconds between a
/// machine's checkpoints) and `POC_DATAFLOW_ATTEMPT` (1 for the first
/// deployment, k + 1 after k failures). Without them nothing is written.
///
/// A checkpoint of task graphs holds the outputs of finished instances of
/// ordinary nodes (not sources, whose generator state the library cannot
/// see, and not serializers, whose instances keep state between them): a
/// re-deployed instance whose outputs are in it routes them again instead
/// of calling the node. Each machine writes its own records, one per
/// interval, through the crash-consistent store (docs/persistence.md), at
/// `g<graph>/a<attempt>/m<machine>/c<n>`: a record is complete or absent,
/// never torn, and its class and layout hash name the graph, so a record
/// of another graph or another program is refused, not replayed.
///
/// A record's payload is an index, then the outputs it indexes: the count
/// of entries, each entry's node, tag and outputs' length, then every
/// entry's encoded outputs in the same order. The outputs are encoded once,
/// by the worker that finished the instance, straight into the buffer that
/// is written; the index is all the writer adds.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/operand.hpp>

#include <poc/persist/store.hpp>
#include <poc/serialize.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace dataflow {

/// A checkpoint that cannot be used: a record that does not verify, or of
/// another graph. The re-deployed run stops before any process starts.
class checkpoint_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// What the launcher asks of this run (from the environment), the same on
/// every machine.
struct RecoverySettings {
  /// The launch's checkpoint store; empty: no checkpoints.
  std::string directory;
  /// Seconds between two checkpoints of one machine (0: after every job).
  double interval = 1.0;
  /// 1 for the first deployment, k + 1 after k failures.
  int attempt = 1;
  /// Identifies the graph and its arguments (records of others are refused).
  std::uint64_t graph = 0;

  bool enabled() const noexcept { return !directory.empty(); }
  /// From POC_DATAFLOW_CHECKPOINT, _CHECKPOINT_INTERVAL and _ATTEMPT;
  /// throws checkpoint_error naming a variable with a bad value.
  static RecoverySettings from_environment();
};

/// FNV-1a 64 of `bytes`, continued from `hash`: the graph's identity.
std::uint64_t fingerprint(std::span<const std::byte> bytes,
                          std::uint64_t hash = 0xcbf29ce484222325ULL);

/// One finished instance in a checkpoint: its node, tag and encoded outputs.
struct CheckpointEntry {
  std::uint32_t node = 0;
  std::uint64_t tag = 0;
  std::vector<std::byte> outputs;
};

/// Main's side of a re-deploy: every entry the earlier deployments of this
/// graph wrote, each verified by the store. Throws checkpoint_error if a
/// record does not verify, names a node the graph does not have
/// (`nodes`), or the directory cannot be read.
std::vector<CheckpointEntry> load_checkpoint(const RecoverySettings &settings, std::size_t nodes);

/// Entries encoded for RunSettings::restored (main sends each machine
/// those of the nodes placed on it), and decoded there.
std::vector<std::byte> encode_restored(const std::vector<CheckpointEntry> &entries);
std::vector<CheckpointEntry> read_restored(std::span<const std::byte> bytes);

/// What a test asks to happen to this process: die with SIGKILL at a
/// given moment of a given deployment (POC_DATAFLOW_KILL, a comma-separated
/// list of `attempt:machine:moment:count`, moment `job` (before its count-th
/// job), `checkpoint` (in the middle of writing its count-th checkpoint) or
/// `restore` (while the re-deploy is being prepared, count 1)). Tests only;
/// a real failure needs no help.
class KillSwitch {
public:
  enum class Moment { job, checkpoint, restore };
  /// The kills for `machine` in deployment `attempt`, from the environment.
  KillSwitch(int attempt, int machine);
  /// Counts one `moment`; returns true if the process is to die now. Any
  /// thread may call it.
  bool due(Moment moment) {
    const auto m = static_cast<std::size_t>(moment);
    return at_[m] != 0 && seen_[m].fetch_add(1) + 1 == at_[m];
  }
  /// Says so on standard error (with the wall-clock time, for measuring the
  /// recovery) and kills this process with SIGKILL.
  [[noreturn]] void kill_now(Moment moment) const;

private:
  int machine_ = 0;
  int attempt_ = 1;
  /// Per moment: the count at which to die (0: never), and the count so far.
  std::array<std::uint64_t, 3> at_{};
  std::array<std::atomic<std::uint64_t>, 3> seen_{};
};

/// One machine's checkpoint writer: the workers add the instances they
/// finish to the record being gathered, and a thread of its own takes that
/// record once per interval (interval 0: as soon as an instance is added,
/// and writes a record per instance) and writes it, so a worker never waits
/// for the disk. Taking it is a swap of two buffers under the lock: the
/// workers go on gathering into the buffer of the record written before,
/// which keeps its memory, so after the first intervals nothing allocates.
class CheckpointLog {
public:
  /// Writes nothing unless `settings` names a directory.
  CheckpointLog(const RecoverySettings &settings, int machine, KillSwitch *kill);
  /// Writes what is left, then stops the writer: a finished run's instances
  /// are all in the checkpoint, so a program that runs several graphs and
  /// dies in a later one runs none of the earlier ones again.
  ~CheckpointLog();
  CheckpointLog(const CheckpointLog &) = delete;
  CheckpointLog &operator=(const CheckpointLog &) = delete;

  bool enabled() const noexcept { return store_.has_value(); }
  /// Adds instance `tag` of `node`, whose outputs are `outputs`: encoded
  /// here, once, into the record being gathered.
  void add(std::uint32_t node, std::uint64_t tag, std::span<const Operand> outputs);
  /// Records written, the entries they held, and the seconds the writer
  /// spent writing them.
  std::uint64_t records() const;
  std::uint64_t entries() const;
  double seconds() const;

private:
  /// The entries of a record and their encoded outputs, back to back.
  struct Gathered {
    struct Entry {
      std::uint32_t node;
      std::uint64_t tag;
      std::size_t bytes;
    };
    std::vector<Entry> entries;
    poc::Writer outputs = in_band_writer();
  };

  void write_loop();
  /// Writes `entries`, whose outputs are `outputs`, as record `sequence`.
  void write(std::span<const Gathered::Entry> entries, std::span<const std::byte> outputs,
             std::uint64_t sequence);

  std::optional<poc::persist::Store> store_;
  std::string prefix_;
  std::uint64_t graph_ = 0;
  std::chrono::duration<double> interval_{0};
  KillSwitch *kill_ = nullptr;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  /// The record the workers add to (under mu_), and the one the writer
  /// thread writes (its own between two swaps).
  Gathered gathering_;
  Gathered writing_;
  /// The writer thread's: the index of the record being written.
  poc::Writer index_ = in_band_writer();
  std::uint64_t records_ = 0;
  std::uint64_t entries_ = 0;
  double seconds_ = 0;
  std::thread writer_;
};

/// The class name of checkpoint records in the store.
inline constexpr const char *checkpoint_class = "dataflow::Checkpoint";

} // namespace dataflow
