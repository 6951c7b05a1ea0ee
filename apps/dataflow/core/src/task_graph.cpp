//===- task_graph.cpp - Building a task graph ----------------------------===//
#include <dataflow/task_graph.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace dataflow {

std::string detail::pair_name(const std::string &name, std::size_t i, std::size_t j) {
  return fmt::format("{} {},{}", name, i, j);
}

const Node &Node::weight(double w) const {
  if (!(w > 0))
    throw graph_error(
        fmt::format("node '{}': weight {} is not positive", graph_->spec(id_).name, w));
  graph_->spec(id_).weight = w;
  return *this;
}

const Node &Node::pin(int machine) const { return pin(machine, -1); }

const Node &Node::pin(int machine, int worker) const {
  if (machine < 0)
    throw graph_error(
        fmt::format("node '{}': machine {} is negative", graph_->spec(id_).name, machine));
  graph_->spec(id_).pinned_machine = machine;
  graph_->spec(id_).pinned_worker = worker;
  return *this;
}

Node TaskGraph::add_spec(NodeSpec spec) {
  fed_.emplace_back(spec.inputs.size(), false);
  nodes_.push_back(std::move(spec));
  return Node(*this, static_cast<NodeId>(nodes_.size() - 1));
}

Node TaskGraph::feed(Node to, std::initializer_list<OutputRef> inputs) {
  unsigned port = 0;
  for (const OutputRef &from : inputs)
    connect(from, to, port++);
  return to;
}

void TaskGraph::connect(OutputRef from, Node to) {
  if (to.id() >= nodes_.size())
    throw graph_error("connect: a node of another graph");
  const std::vector<bool> &fed = fed_[to.id()];
  const auto free = std::find(fed.begin(), fed.end(), false);
  if (free == fed.end())
    throw graph_error(fmt::format("node '{}': every input already has an edge (it has {})",
                                  nodes_[to.id()].name, fed.size()));
  connect(from, to, static_cast<unsigned>(free - fed.begin()));
}

void TaskGraph::connect(OutputRef from, Node to, unsigned port) {
  if (from.node >= nodes_.size() || to.id() >= nodes_.size())
    throw graph_error("connect: a node of another graph");
  const NodeSpec &tail = nodes_[from.node];
  const NodeSpec &head = nodes_[to.id()];
  if (from.output >= tail.outputs.size())
    throw graph_error(fmt::format("node '{}' has no output {} (it has {})", tail.name, from.output,
                                  tail.outputs.size()));
  if (port >= head.inputs.size())
    throw graph_error(
        fmt::format("node '{}' has no input {} (it has {})", head.name, port, head.inputs.size()));
  if (tail.outputs[from.output] != head.inputs[port])
    throw graph_error(fmt::format("edge '{}' output {} -> '{}' input {}: the output is {} but the "
                                  "input takes {}",
                                  tail.name, from.output, head.name, port,
                                  tail.outputs[from.output]->name(), head.inputs[port]->name()));
  edges_.push_back({from.node, from.output, to.id(), port});
  fed_[to.id()][port] = true;
}

NodeId TaskGraph::find(const std::string &name) const {
  for (NodeId n = 0; n < nodes_.size(); ++n)
    if (nodes_[n].name == name)
      return n;
  throw graph_error(fmt::format("the graph has no node named '{}'", name));
}

} // namespace dataflow
