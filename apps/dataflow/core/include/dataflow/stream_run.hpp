//===- dataflow/stream_run.hpp - Running a stream graph on one machine ---===//
///
/// \file
/// A machine's share of a stream graph run: the inboxes of its vertices
/// and which streams are closed. A vertex with data waiting is one job in
/// the ready queue; the worker that takes it runs the vertex's callbacks
/// for a batch of data, so a vertex never runs on two workers at once.
///
/// The end of a run: machine 0 counts closed streams (each end reports a
/// close to it and to the other end's machine); once every machine has run
/// its start callbacks and every stream is closed, the run ends.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/machine_run.hpp>
#include <dataflow/results.hpp>
#include <dataflow/stream_graph.hpp>

#include <deque>
#include <memory>

namespace dataflow {

class StreamRun final : public MachineRun, private VertexContext {
public:
  StreamRun(std::shared_ptr<const StreamGraph> graph, RunSettings settings, Transport &transport);

private:
  struct Inbox {
    std::deque<std::pair<StreamId, Operand>> data;
    bool start_pending = false;
    /// In the ready queue or running.
    bool scheduled = false;
  };

  void begin_locked(Outbox &out) override;
  void execute(Job &job, Outbox &out) override;
  void apply_locked(RecordKind kind, poc::Reader &in, Outbox &out) override;
  bool complete_locked() const override;
  void write_results_locked(poc::Writer &out) const override;
  void write_job(const Job &job, poc::Writer &out) const override;
  Job read_job(poc::Reader &in) const override;
  bool stealable(const Job &) const override { return false; }

  const std::string &vertex_name(VertexId v) const override;
  bool write(VertexId from, StreamId s, Operand value) override;
  void close(VertexId from, StreamId s) override;
  void report(VertexId from, Operand value) override;

  int machine_of(VertexId v) const { return settings_.placement[v].machine; }
  StreamId checked_stream(std::uint64_t s) const;
  void deliver_locked(StreamId s, Operand value, Outbox &out);
  void schedule_locked(VertexId v, Outbox &out);
  void close_locked(StreamId s, Outbox &out);
  void mark_closed_locked(StreamId s, Outbox &out);
  void store_report_locked(VertexId v, Operand value, Outbox &out);
  /// Adds datum `count[s]++` of stream `s` to `spans` if it crosses machines.
  void note_datum(StreamId s, std::vector<std::uint64_t> &count,
                  std::vector<std::vector<std::uint64_t>> &spans) const;

  const std::shared_ptr<const StreamGraph> graph_;
  std::vector<Inbox> inboxes_;
  std::vector<bool> closed_;
  /// With RunSettings::record: data read from (at the head) and written to
  /// (at the tail) each stream between machines, so that --trace can pair
  /// a datum's writer with its reader. Each is used by one vertex only.
  std::vector<std::uint64_t> read_count_;
  std::vector<std::uint64_t> written_count_;
  std::size_t local_vertices_ = 0;
  std::size_t started_ = 0;
  /// The outbox of the job running on this thread (callbacks write to it).
  static thread_local Outbox *current_out_;
  // Coordinator.
  std::size_t streams_closed_ = 0;
  std::vector<std::vector<Operand>> reports_;
};

/// Main's side: what the vertices reported (or the failure thrown as
/// node_failure).
Results read_stream_results(const StreamGraph &graph, std::span<const std::byte> outcome);

} // namespace dataflow
