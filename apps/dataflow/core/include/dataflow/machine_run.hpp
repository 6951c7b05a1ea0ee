//===- dataflow/machine_run.hpp - One machine's share of a run -----------===//
///
/// \file
/// What every machine of a run holds, for task graphs and stream graphs
/// alike: a ready queue that its workers pull from (first come, first
/// served), the batches of records bound for other machines, and the end of
/// the run. Machine 0 also coordinates: it learns when the run is complete
/// or has failed and tells the others.
///
/// The workers and the scheduler that receives batches are poc++ processes
/// (apps/dataflow/include/dataflow/dataflow.hpp); this class is the state
/// they share on one machine, so local edges cost no message. Idle workers
/// wait through `poc::wait_until`, so while they wait they also receive the
/// host's messages.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/operand.hpp>
#include <dataflow/placement.hpp>
#include <dataflow/recovery.hpp>
#include <dataflow/run_options.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <vector>

namespace dataflow {

/// Sends a batch of records to the scheduler of another machine: batch
/// `sequence` (0, 1, 2, ...) of those machine `from` sends to `machine`.
class Transport {
public:
  virtual ~Transport() = default;
  virtual void send(int machine, int from, std::uint64_t sequence,
                    std::vector<std::byte> batch) = 0;
};

/// What a machine knows about its run, the same on every machine.
struct RunSettings {
  Scheduling scheduling = Scheduling::distributed;
  bool steal = false;
  /// Record every job (InstanceRecord): --trace, --stats.
  bool record = false;
  /// This machine's index.
  int machine = 0;
  /// Workers per machine.
  std::vector<int> workers;
  /// Where each node (task graph) or vertex (stream graph) runs.
  std::vector<Place> placement;
  /// Checkpoints, and which deployment this is (dataflow-recover).
  RecoverySettings recovery;
  /// A re-deploy: the checkpointed instances of this machine's nodes
  /// (encode_restored).
  std::vector<std::byte> restored;

  int machines() const noexcept { return static_cast<int>(workers.size()); }
};

/// The kinds of record in a batch. Each record is its kind byte and its
/// fields, encoded with the runtime's serializer.
enum class RecordKind : std::uint8_t {
  // Common to all runs.
  job = 1,       ///< a ready job, dispatched (central scheduling) or stolen
  steal_request, ///< machine asks for work: thief
  steal_answer,  ///< the reply to a steal request (jobs, if any, came before it)
  machine_done,  ///< machine (field) has nothing more to do for the run
  failure,       ///< where, type, message: the run fails
  finish,        ///< the run has ended (successfully or not)
  // Task graphs.
  operand,     ///< node, port, tag, value
  port_end,    ///< node, port, count: no more operands after count
  completion,  ///< node, tag, emitted: an instance finished
  result,      ///< node, output, tag, value: a value no edge consumes
  results_end, ///< node, count: results of node that will arrive
  // Stream graphs.
  datum,            ///< stream, value
  stream_closed,    ///< stream
  vertices_started, ///< machine: its vertices' start callbacks have run
};

/// Records bound for other machines, gathered while one job runs and sent
/// when it is over (one message per machine and job). A batch's place in
/// the order of its machine's batches to that machine is fixed when it is
/// sealed (MachineRun::seal_locked), not when it is sent.
class Outbox {
public:
  explicit Outbox(int machines) : batches_(machines) {}
  poc::Writer &to(int machine);
  /// Ends every non-empty batch, numbering it with `next[machine]++`.
  void seal(std::vector<std::uint64_t> &next);
  /// Sends the sealed batches as machine `from`; returns how many.
  int flush(Transport &transport, int from);

private:
  struct Sealed {
    int machine;
    std::uint64_t sequence;
    std::vector<std::byte> records;
  };
  std::vector<std::optional<poc::Writer>> batches_;
  std::vector<Sealed> sealed_;
};

/// A job in the ready queue: an instance of a node with its operands (task
/// graphs) or a vertex with data to read (stream graphs, `tag` unused).
struct Job {
  std::uint32_t id = 0;
  std::uint64_t tag = 0;
  std::vector<Operand> inputs;
  /// The machine that sent it here (stolen or dispatched), or -1.
  int from = -1;
};

class MachineRun {
public:
  MachineRun(RunSettings settings, Transport &transport);
  virtual ~MachineRun();
  MachineRun(const MachineRun &) = delete;
  MachineRun &operator=(const MachineRun &) = delete;

  /// Runs before any worker does: the jobs that need no operand.
  void begin();
  /// Worker `worker`'s loop: runs ready jobs until the run ends.
  void work(int worker);
  /// Applies batch `sequence` of machine `from`: in sequence order, so a
  /// batch that arrives early waits for those before it.
  void accept(int from, std::uint64_t sequence, std::vector<std::byte> batch);
  /// Machine 0, after the run: the encoded results or failure.
  std::vector<std::byte> outcome();
  MachineStats stats() const;
  /// The jobs this machine ran (RunSettings::record), encoded.
  std::vector<std::byte> records() const;

  const RunSettings &settings() const noexcept { return settings_; }
  int machine() const noexcept { return settings_.machine; }

protected:
  /// The jobs that start the run (called once, with the lock held).
  virtual void begin_locked(Outbox &out) = 0;
  /// Runs a job (without the lock).
  virtual void execute(Job &job, Outbox &out) = 0;
  /// Applies one record of a kind the base does not know (lock held).
  virtual void apply_locked(RecordKind kind, poc::Reader &in, Outbox &out) = 0;
  /// Coordinator: true once the run is complete (lock held).
  virtual bool complete_locked() const = 0;
  /// Coordinator: the results, encoded after a success.
  virtual void write_results_locked(poc::Writer &out) const = 0;
  /// Encodes a job for another machine, and decodes one.
  virtual void write_job(const Job &job, poc::Writer &out) const = 0;
  virtual Job read_job(poc::Reader &in) const = 0;
  /// True if the job may run on another machine than its own.
  virtual bool stealable(const Job &job) const = 0;

  /// Queues a ready job on this machine (lock held). `from_worker`: the
  /// caller is a worker that will take a job itself next.
  void push_ready_locked(Job job, Outbox &out, bool from_worker);
  /// Sends a job to `machine` or queues it here.
  void dispatch_locked(Job job, int machine, Outbox &out, bool from_worker);
  /// Records that this machine has nothing more to do (lock held).
  void report_machine_done_locked(Outbox &out);
  /// Reports a failure; the run stops (lock held).
  void fail_locked(const std::string &where, std::exception_ptr error, Outbox &out);
  /// The writer for records to `machine`, or nullptr for this machine.
  poc::Writer *route(int machine, Outbox &out) {
    return machine == settings_.machine ? nullptr : &out.to(machine);
  }
  /// Coordinator: ends the run if it is complete (lock held). Only the
  /// coordinator ends a run (finish_locked); the others learn of it.
  void check_complete_locked(Outbox &out);
  /// Takes the lock and applies what a worker or the scheduler produced.
  std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mu_); }
  /// Fixes the order of the batches in `out` among this machine's batches
  /// (lock held): each is applied at its destination after every batch
  /// sealed before it. A job seals before it lets go of what orders its
  /// records (a vertex seals before it may run again).
  void seal_locked(Outbox &out) { out.seal(next_sequence_); }
  /// Seals (taking the lock) and sends what `out` holds.
  void send(Outbox &out);

  /// The record of the job running on this thread, if recording.
  static thread_local InstanceRecord *current_record_;

  const RunSettings settings_;
  Transport &transport_;
  /// Test kills (POC_DATAFLOW_KILL), and this machine's checkpoints.
  KillSwitch kill_;
  CheckpointLog checkpoint_;
  /// Jobs that routed checkpointed outputs instead of running (lock held).
  std::uint64_t jobs_restored_ = 0;

private:
  double now_us() const;
  void apply_batch_locked(std::span<const std::byte> batch, Outbox &out);
  void apply_common_locked(RecordKind kind, poc::Reader &in, Outbox &out);
  void finish_locked(Outbox &out);
  void ask_for_work_locked(Outbox &out);
  void give_work_locked(int thief, Outbox &out);
  std::optional<Job> pop_locked();

  mutable std::mutex mu_;
  std::deque<Job> ready_;
  /// Read by waiting workers' conditions without the lock.
  std::atomic<std::size_t> queued_{0};
  std::atomic<bool> ended_{false};
  int idle_workers_ = 0;
  int steal_answers_awaited_ = 0;
  /// Machines that asked for work when this one had none to spare.
  std::set<int> hungry_;
  /// Per machine: the sequence number of the next batch sealed for it, and
  /// of the next batch from it to apply; batches from it that came early.
  std::vector<std::uint64_t> next_sequence_;
  std::vector<std::uint64_t> next_to_apply_;
  std::vector<std::map<std::uint64_t, std::vector<std::byte>>> early_;
  // Coordinator state.
  std::vector<bool> machines_done_;
  std::optional<Failure> failure_;
  // Counters (lock held).
  MachineStats stats_;
  /// The batch being applied came from this machine.
  int applying_from_ = -1;
  // With RunSettings::record: the jobs run, timed from `origin_`.
  std::chrono::steady_clock::time_point origin_;
  std::vector<InstanceRecord> records_;
};

/// Main's side: adds the records of MachineRun::records() to `into`.
void read_records(std::span<const std::byte> bytes, std::vector<InstanceRecord> &into);

} // namespace dataflow
