//===- task_run.cpp - The firing rule, and the end of nodes and runs -----===//
#include <dataflow/task_run.hpp>

#include <fmt/format.h>

namespace dataflow {

TaskRun::TaskRun(std::shared_ptr<const TaskGraph> graph, RunSettings settings, Transport &transport)
    : MachineRun(std::move(settings), transport), graph_(std::move(graph)),
      shape_(GraphShape::of(*graph_)), matching_(graph_->size()),
      results_expected_(graph_->size(), kUnknown), results_received_(graph_->size(), 0) {
  if (settings_.placement.size() != graph_->size())
    throw graph_error(fmt::format("the placement covers {} nodes, the graph has {}",
                                  settings_.placement.size(), graph_->size()));
  for (NodeId n = 0; n < graph_->size(); ++n) {
    if (owner(n) != machine())
      continue;
    ++owned_;
    const auto &shape = shape_.nodes[n];
    Matching &m = matching_[n];
    const std::size_t ports = shape.producers.size();
    m.shared.resize(ports);
    m.received.assign(ports, 0);
    m.expected.resize(ports);
    for (std::size_t p = 0; p < ports; ++p) {
      m.expected[p] = shape.counted_port[p] ? kUnknown : 1;
      if (shape.shared_port[p])
        ++m.shared_missing;
      else
        ++m.unshared_ports;
    }
  }
  for (NodeId n = 0; n < graph_->size(); ++n)
    if (!shape_.nodes[n].has_results)
      results_expected_[n] = 0;
  if (!settings_.restored.empty())
    for (CheckpointEntry &e : read_restored(settings_.restored))
      restored_.try_emplace({checked_node(e.node), e.tag}, std::move(e.outputs));
}

namespace {
/// Ordinary nodes compute their outputs from their operands alone, so a
/// checkpoint may stand for them; a source's generator and a serializer's
/// state between instances live in captures the library cannot save.
bool replayable(const NodeSpec &spec) { return spec.kind == NodeKind::task; }
} // namespace

std::optional<std::vector<Operand>> TaskRun::restore(NodeId n, Tag tag) const {
  const auto it = restored_.find({n, tag});
  if (it == restored_.end() || !replayable(graph_->spec(n)))
    return std::nullopt;
  poc::Reader in(it->second);
  std::vector<Operand> outputs;
  for (const Codec *codec : graph_->spec(n).outputs)
    outputs.push_back(Operand::decode(*codec, in));
  in.expect_end();
  return outputs;
}

void TaskRun::checkpoint(NodeId n, Tag tag, const std::vector<Operand> &outputs) {
  if (checkpoint_.enabled() && replayable(graph_->spec(n)))
    checkpoint_.add(n, tag, outputs);
}

void TaskRun::begin_locked(Outbox &out) {
  // Nodes without inputs (sources among them) fire once, at the start.
  for (NodeId n = 0; n < graph_->size(); ++n)
    if (owner(n) == machine() && shape_.nodes[n].producers.empty()) {
      auto slot = matching_[n].slots.try_emplace(0).first;
      fire_locked(n, slot, out, false);
    }
  if (owned_ == 0)
    report_machine_done_locked(out);
}

bool TaskRun::inputs_closed(const Matching &m) const {
  for (std::size_t p = 0; p < m.expected.size(); ++p)
    if (m.received[p] != m.expected[p])
      return false;
  return true;
}

void TaskRun::fire_locked(NodeId n, std::map<Tag, Slot>::iterator slot, Outbox &out,
                          bool from_worker) {
  Matching &m = matching_[n];
  Job job{n, slot->first, std::move(slot->second.inputs)};
  job.inputs.resize(m.shared.size());
  for (std::size_t p = 0; p < m.shared.size(); ++p)
    if (shape_.nodes[n].shared_port[p])
      job.inputs[p] = m.shared[p];
  m.slots.erase(slot);
  ++m.fired;
  m.in_flight = graph_->spec(n).kind == NodeKind::serializer;
  dispatch_locked(std::move(job), settings_.placement[n].machine, out, from_worker);
}

void TaskRun::fire_ready_slots_locked(NodeId n, Outbox &out, bool from_worker) {
  if (graph_->spec(n).kind == NodeKind::serializer) {
    advance_serializer_locked(n, out, from_worker);
    return;
  }
  Matching &m = matching_[n];
  for (auto it = m.slots.begin(); it != m.slots.end();) {
    auto next = std::next(it);
    if (complete(m, it->second))
      fire_locked(n, it, out, from_worker);
    it = next;
  }
}

void TaskRun::advance_serializer_locked(NodeId n, Outbox &out, bool from_worker) {
  Matching &m = matching_[n];
  while (!m.in_flight && !m.slots.empty()) {
    auto first = m.slots.begin();
    const bool closed = inputs_closed(m);
    if (complete(m, first->second) && (first->first == m.next_in_order || closed)) {
      fire_locked(n, first, out, from_worker);
      return;
    }
    // With every operand in, an incomplete tag never completes: skip it.
    if (!closed)
      return;
    m.slots.erase(first);
  }
}

void TaskRun::accept_operand_locked(NodeId n, unsigned port, Tag tag, Operand value, Outbox &out,
                                    bool from_worker) {
  Matching &m = matching_[n];
  const auto &shape = shape_.nodes[n];
  ++m.received[port];
  if (m.done || m.received[port] > m.expected[port])
    throw poc::decode_error(fmt::format("node '{}' input {}: more operands than its producer "
                                        "sent",
                                        graph_->spec(n).name, port));
  if (shape.shared_port[port]) {
    m.shared[port] = std::move(value);
    if (--m.shared_missing == 0)
      fire_ready_slots_locked(n, out, from_worker);
  } else {
    if (!shape.per_tag)
      tag = 0;
    auto slot = m.slots.try_emplace(tag).first;
    if (slot->second.inputs.empty())
      slot->second.inputs.resize(shape.producers.size());
    slot->second.inputs[port] = std::move(value);
    ++slot->second.have;
    if (graph_->spec(n).kind == NodeKind::serializer)
      advance_serializer_locked(n, out, from_worker);
    else if (complete(m, slot->second))
      fire_locked(n, slot, out, from_worker);
  }
  maybe_done_locked(n, out);
}

void TaskRun::end_port_locked(NodeId n, unsigned port, std::uint64_t count, Outbox &out) {
  Matching &m = matching_[n];
  if (m.expected[port] != kUnknown || m.received[port] > count)
    throw poc::decode_error(fmt::format("node '{}' input {}: an end of {} operands after {}",
                                        graph_->spec(n).name, port, count, m.received[port]));
  m.expected[port] = count;
  if (graph_->spec(n).kind == NodeKind::serializer)
    advance_serializer_locked(n, out, false);
  maybe_done_locked(n, out);
}

void TaskRun::maybe_done_locked(NodeId n, Outbox &out) {
  Matching &m = matching_[n];
  if (m.done || !inputs_closed(m) || m.fired != m.finished)
    return;
  if (graph_->spec(n).kind == NodeKind::serializer) {
    advance_serializer_locked(n, out, false);
    if (m.fired != m.finished)
      return;
  }
  // Whatever is left can never complete.
  m.slots.clear();
  m.done = true;
  const auto &shape = shape_.nodes[n];
  std::uint64_t result_outputs = 0;
  for (const auto &consumers : shape.consumers) {
    result_outputs += consumers.empty();
    if (!shape.per_tag)
      continue; // consumers expect exactly one operand
    for (const auto &c : consumers) {
      if (poc::Writer *w = route(owner(c.node), out)) {
        w->write(RecordKind::port_end);
        w->write_all(c.node, c.port, m.emitted);
      } else {
        end_port_locked(c.node, c.port, m.emitted, out);
      }
    }
  }
  if (shape.has_results) {
    if (poc::Writer *w = route(0, out)) {
      w->write(RecordKind::results_end);
      w->write_all(n, m.emitted * result_outputs);
    } else {
      expect_results_locked(n, m.emitted * result_outputs, out);
    }
  }
  if (++owned_done_ == owned_)
    report_machine_done_locked(out);
}

void TaskRun::instance_finished_locked(NodeId n, Tag tag, std::uint64_t emitted, Outbox &out) {
  Matching &m = matching_[n];
  if (m.finished >= m.fired)
    throw poc::decode_error(
        fmt::format("node '{}': more instances finished than fired", graph_->spec(n).name));
  ++m.finished;
  m.emitted += emitted;
  if (graph_->spec(n).kind == NodeKind::serializer) {
    m.in_flight = false;
    m.next_in_order = tag + 1;
    advance_serializer_locked(n, out, true);
  }
  maybe_done_locked(n, out);
}

void TaskRun::route_outputs_locked(NodeId n, Tag tag, const std::vector<Operand> &outputs,
                                   Outbox &out, bool from_worker) {
  const auto &shape = shape_.nodes[n];
  for (unsigned k = 0; k < outputs.size(); ++k) {
    if (shape.consumers[k].empty()) {
      store_result_locked(n, k, tag, outputs[k], out);
      continue;
    }
    for (const auto &c : shape.consumers[k]) {
      if (poc::Writer *w = route(owner(c.node), out)) {
        w->write(RecordKind::operand);
        w->write_all(c.node, c.port, tag);
        outputs[k].encode(*w);
      } else {
        accept_operand_locked(c.node, c.port, tag, outputs[k], out, from_worker);
      }
    }
  }
}

void TaskRun::store_result_locked(NodeId n, unsigned output, Tag tag, Operand value, Outbox &out) {
  if (poc::Writer *w = route(0, out)) {
    w->write(RecordKind::result);
    w->write_all(n, output, tag);
    value.encode(*w);
    return;
  }
  results_[{n, output}][tag] = std::move(value);
  ++results_received_[n];
  check_complete_locked(out);
}

void TaskRun::expect_results_locked(NodeId n, std::uint64_t count, Outbox &out) {
  results_expected_[n] = count;
  check_complete_locked(out);
}

void TaskRun::execute(Job &job, Outbox &out) {
  const NodeId n = job.id;
  const NodeSpec &spec = graph_->spec(n);
  std::uint64_t emitted = 1;
  if (current_record_)
    for (const Operand &input : job.inputs)
      current_record_->bytes_in += input ? input.encoded_size() : 0;
  try {
    if (spec.kind == NodeKind::source) {
      emitted = 0;
      spec.source([&](Operand value) {
        if (current_record_)
          current_record_->bytes_out += value.encoded_size();
        {
          auto lk = lock();
          // The source goes on emitting: another worker takes what it makes.
          route_outputs_locked(n, emitted++, {std::move(value)}, out, false);
        }
        send(out);
      });
    } else {
      std::optional<std::vector<Operand>> outputs = restore(n, job.tag);
      const bool restored = outputs.has_value();
      if (!restored) {
        outputs = spec.body(job.inputs);
        checkpoint(n, job.tag, *outputs);
      }
      if (current_record_) {
        current_record_->restored = restored;
        for (const Operand &output : *outputs)
          current_record_->bytes_out += output.encoded_size();
      }
      auto lk = lock();
      jobs_restored_ += restored;
      route_outputs_locked(n, job.tag, *outputs, out, true);
    }
  } catch (...) {
    auto lk = lock();
    fail_locked(fmt::format("node '{}'", spec.name), std::current_exception(), out);
    return;
  }
  auto lk = lock();
  if (poc::Writer *w = route(owner(n), out)) {
    w->write(RecordKind::completion);
    w->write_all(n, job.tag, emitted);
  } else {
    instance_finished_locked(n, job.tag, emitted, out);
  }
}

NodeId TaskRun::checked_node(std::uint64_t n) const {
  if (n >= graph_->size())
    throw poc::decode_error(fmt::format("node {} of a graph of {}", n, graph_->size()));
  return static_cast<NodeId>(n);
}

unsigned TaskRun::checked_port(NodeId n, std::uint64_t port, bool input) const {
  const NodeSpec &spec = graph_->spec(n);
  if (port >= (input ? spec.inputs.size() : spec.outputs.size()))
    throw poc::decode_error(
        fmt::format("node '{}' has no {} {}", spec.name, input ? "input" : "output", port));
  return static_cast<unsigned>(port);
}

void TaskRun::apply_locked(RecordKind kind, poc::Reader &in, Outbox &out) {
  switch (kind) {
  case RecordKind::operand: {
    const NodeId n = checked_node(in.read<NodeId>());
    const unsigned port = checked_port(n, in.read<unsigned>(), true);
    const Tag tag = in.read<Tag>();
    if (owner(n) != machine())
      throw poc::decode_error(fmt::format("an operand for node '{}', owned by machine {}",
                                          graph_->spec(n).name, owner(n)));
    accept_operand_locked(n, port, tag, Operand::decode(*graph_->spec(n).inputs[port], in), out,
                          false);
    return;
  }
  case RecordKind::port_end: {
    const NodeId n = checked_node(in.read<NodeId>());
    const unsigned port = checked_port(n, in.read<unsigned>(), true);
    end_port_locked(n, port, in.read<std::uint64_t>(), out);
    return;
  }
  case RecordKind::completion: {
    const NodeId n = checked_node(in.read<NodeId>());
    const Tag tag = in.read<Tag>();
    instance_finished_locked(n, tag, in.read<std::uint64_t>(), out);
    return;
  }
  case RecordKind::result: {
    const NodeId n = checked_node(in.read<NodeId>());
    const unsigned output = checked_port(n, in.read<unsigned>(), false);
    const Tag tag = in.read<Tag>();
    store_result_locked(n, output, tag, Operand::decode(*graph_->spec(n).outputs[output], in), out);
    return;
  }
  case RecordKind::results_end: {
    const NodeId n = checked_node(in.read<NodeId>());
    expect_results_locked(n, in.read<std::uint64_t>(), out);
    return;
  }
  default:
    throw poc::decode_error(
        fmt::format("record kind {} in a task graph run", static_cast<int>(kind)));
  }
}

bool TaskRun::complete_locked() const {
  for (NodeId n = 0; n < graph_->size(); ++n)
    if (results_received_[n] != results_expected_[n])
      return false;
  return true;
}

void TaskRun::write_results_locked(poc::Writer &out) const {
  out.write(static_cast<std::uint64_t>(results_.size()));
  for (const auto &[where, values] : results_) {
    out.write_all(where.first, where.second, static_cast<std::uint64_t>(values.size()));
    for (const auto &[tag, value] : values) {
      out.write(tag);
      value.encode(out);
    }
  }
}

void TaskRun::write_job(const Job &job, poc::Writer &out) const {
  out.write_all(job.id, job.tag);
  for (const Operand &input : job.inputs)
    input.encode(out);
}

Job TaskRun::read_job(poc::Reader &in) const {
  Job job;
  job.id = checked_node(in.read<NodeId>());
  job.tag = in.read<Tag>();
  for (const Codec *codec : graph_->spec(job.id).inputs)
    job.inputs.push_back(Operand::decode(*codec, in));
  return job;
}

bool TaskRun::stealable(const Job &job) const {
  // A serializer's instances run in order on its own machine: it is where
  // state kept between instances lives.
  const NodeSpec &spec = graph_->spec(job.id);
  return spec.pinned_machine < 0 && spec.kind != NodeKind::serializer;
}

} // namespace dataflow

namespace dataflow {

Results read_task_results(const TaskGraph &graph, const GraphShape &shape,
                          std::span<const std::byte> outcome) {
  poc::Reader in(outcome);
  throw_if_failed(in);
  Results results;
  for (NodeId n = 0; n < graph.size(); ++n)
    for (unsigned k = 0; k < shape.nodes[n].consumers.size(); ++k)
      if (shape.nodes[n].consumers[k].empty())
        results.declare(graph.spec(n).name, k, *graph.spec(n).outputs[k]);
  for (auto entries = in.read<std::uint64_t>(); entries > 0; --entries) {
    const auto n = in.read<NodeId>();
    const auto k = in.read<unsigned>();
    if (n >= graph.size() || k >= graph.spec(n).outputs.size())
      throw poc::decode_error(fmt::format("results of node {} output {}", n, k));
    for (auto values = in.read<std::uint64_t>(); values > 0; --values) {
      in.read<Tag>();
      results.add(graph.spec(n).name, k, Operand::decode(*graph.spec(n).outputs[k], in));
    }
  }
  in.expect_end();
  return results;
}

} // namespace dataflow
