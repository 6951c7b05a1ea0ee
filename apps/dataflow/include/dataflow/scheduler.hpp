//===- dataflow/scheduler.hpp - A machine's Scheduler process ------------===//
///
/// \file
/// One Scheduler process per machine (rank) of a run: it holds the
/// machine's share of the run and applies the batches of records the other
/// machines send it (`start peer->deliver(...)`). Compiled by poc++ with
/// each program (it is a process); `dataflow::run` creates it.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/entry.hpp>

#include <poc/annotations.hpp>
#include <poc/run.hpp>
#include <poc/sync.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <utility>
#include <vector>

namespace dataflow {

class Scheduler;

namespace detail {
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
    return {std::string(name), poc::usable_cpus()};
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
  /// caller's calls, so the run puts the batches back in order. It never
  /// waits (it takes the run's lock and starts calls), so it runs on the
  /// thread that receives the batch, often a waiting worker that then runs
  /// the job the batch made ready: no thread is woken for it.
  POC_NONBLOCKING void deliver(int from, std::uint64_t sequence, std::vector<std::byte> batch) {
    run_->accept(from, sequence, std::move(batch));
  }
  /// Machine 0: the results or the failure.
  std::vector<std::byte> outcome() { return run_->outcome(); }
  /// This machine's counters: jobs run, batches sent and received, records
  /// received, jobs stolen, jobs restored from the checkpoint, checkpoint
  /// records written, the instances they hold and the time spent writing.
  std::vector<std::uint64_t> counters() const {
    const MachineStats s = run_->stats();
    return {s.jobs_run,      s.batches_sent, s.batches_received, s.records_received, s.jobs_stolen,
            s.jobs_restored, s.checkpoints,  s.checkpointed,     s.checkpoint_us};
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

inline void detail::SchedulerTransport::send(int machine, int from, std::uint64_t sequence,
                                             std::vector<std::byte> batch) {
  start peers_[machine]->deliver(from, sequence, std::move(batch));
}

} // namespace dataflow
