//===- dataflow/task_run.hpp - Running a task graph on one machine -------===//
///
/// \file
/// A machine's share of a task graph run: the operands waiting for the
/// nodes it owns, the firing rule, and the end of each node. A node is
/// owned by the machine it is placed on (distributed scheduling) or by
/// machine 0 (central scheduling); it runs where it is placed, or where it
/// was stolen to.
///
/// The end of a run: a node that fires per tag learns how many operands
/// each counted port will receive when its producer ends (a `port_end`
/// record carrying the count), so it ends once they have all arrived and
/// its instances have finished. A machine whose nodes have all ended says
/// so to machine 0, which ends the run when every machine has and every
/// result has arrived.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/graph_shape.hpp>
#include <dataflow/machine_run.hpp>
#include <dataflow/results.hpp>

#include <map>
#include <memory>
#include <optional>

namespace dataflow {

class TaskRun final : public MachineRun {
public:
  TaskRun(std::shared_ptr<const TaskGraph> graph, RunSettings settings, Transport &transport);

private:
  struct Slot {
    std::vector<Operand> inputs;
    unsigned have = 0;
  };
  /// The state of one owned node.
  struct Matching {
    /// Operands of instances not yet complete, by tag.
    std::map<Tag, Slot> slots;
    /// The operands of shared ports (one for every tag).
    std::vector<Operand> shared;
    unsigned shared_missing = 0;
    unsigned unshared_ports = 0;
    /// Per port: operands expected (kUnknown until the producer ends) and received.
    std::vector<std::uint64_t> expected;
    std::vector<std::uint64_t> received;
    std::uint64_t fired = 0;
    std::uint64_t finished = 0;
    /// Values emitted on each output so far.
    std::uint64_t emitted = 0;
    /// Serializers: the next tag in order, and whether an instance runs.
    Tag next_in_order = 0;
    bool in_flight = false;
    bool done = false;
  };
  static constexpr std::uint64_t kUnknown = ~std::uint64_t{0};

  void begin_locked(Outbox &out) override;
  void execute(Job &job, Outbox &out) override;
  void apply_locked(RecordKind kind, poc::Reader &in, Outbox &out) override;
  bool complete_locked() const override;
  void write_results_locked(poc::Writer &out) const override;
  void write_job(const Job &job, poc::Writer &out) const override;
  Job read_job(poc::Reader &in) const override;
  bool stealable(const Job &job) const override;

  int owner(NodeId n) const {
    return settings_.scheduling == Scheduling::central ? 0 : settings_.placement[n].machine;
  }
  NodeId checked_node(std::uint64_t n) const;
  unsigned checked_port(NodeId n, std::uint64_t port, bool input) const;

  void accept_operand_locked(NodeId n, unsigned port, Tag tag, Operand value, Outbox &out,
                             bool from_worker);
  void fire_locked(NodeId n, std::map<Tag, Slot>::iterator slot, Outbox &out, bool from_worker);
  void fire_ready_slots_locked(NodeId n, Outbox &out, bool from_worker);
  void advance_serializer_locked(NodeId n, Outbox &out, bool from_worker);
  bool complete(const Matching &m, const Slot &slot) const {
    return slot.have == m.unshared_ports && m.shared_missing == 0;
  }
  bool inputs_closed(const Matching &m) const;
  void end_port_locked(NodeId n, unsigned port, std::uint64_t count, Outbox &out);
  void maybe_done_locked(NodeId n, Outbox &out);
  void instance_finished_locked(NodeId n, Tag tag, std::uint64_t emitted, Outbox &out);
  /// Sends instance `tag` of `n`'s outputs along its edges (lock held).
  /// `from_worker`: the calling worker takes a job next (see push_ready_locked).
  void route_outputs_locked(NodeId n, Tag tag, const std::vector<Operand> &outputs, Outbox &out,
                            bool from_worker);
  void store_result_locked(NodeId n, unsigned output, Tag tag, Operand value, Outbox &out);
  void expect_results_locked(NodeId n, std::uint64_t count, Outbox &out);
  /// A re-deploy: instance `tag` of `n`'s outputs from the checkpoint, if
  /// it holds them.
  std::optional<std::vector<Operand>> restore(NodeId n, Tag tag) const;
  /// Adds a finished instance's outputs to the checkpoint.
  void checkpoint(NodeId n, Tag tag, const std::vector<Operand> &outputs);

  const std::shared_ptr<const TaskGraph> graph_;
  const GraphShape shape_;
  std::vector<Matching> matching_;
  std::size_t owned_ = 0;
  std::size_t owned_done_ = 0;
  // Coordinator: results by node and output, in tag order.
  std::map<std::pair<NodeId, unsigned>, std::map<Tag, Operand>> results_;
  std::vector<std::uint64_t> results_expected_;
  std::vector<std::uint64_t> results_received_;
  /// A re-deploy: the encoded outputs of instances of this machine's nodes
  /// that an earlier deployment finished (read-only once made).
  std::map<std::pair<NodeId, Tag>, std::vector<std::byte>> restored_;
};

} // namespace dataflow

namespace dataflow {
/// Main's side: the results in machine 0's outcome (or its failure thrown
/// as node_failure).
Results read_task_results(const TaskGraph &graph, const GraphShape &shape,
                          std::span<const std::byte> outcome);
} // namespace dataflow
