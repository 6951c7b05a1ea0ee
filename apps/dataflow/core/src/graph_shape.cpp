//===- graph_shape.cpp - Checking and analysing a task graph -------------===//
#include <dataflow/graph_shape.hpp>

#include <fmt/format.h>

#include <unordered_set>

namespace dataflow {

namespace {

constexpr NodeId kNoProducer = ~NodeId{0};

void check_names(const TaskGraph &graph) {
  std::unordered_set<std::string> seen;
  for (NodeId n = 0; n < graph.size(); ++n)
    if (!seen.insert(graph.spec(n).name).second)
      throw graph_error(fmt::format("two nodes are named '{}'", graph.spec(n).name));
}

void connect_edges(const TaskGraph &graph, GraphShape &shape) {
  for (const Edge &e : graph.edges()) {
    auto &to = shape.nodes[e.to];
    if (to.producers[e.port].node != kNoProducer)
      throw graph_error(fmt::format(
          "input {} of node '{}' has two edges (from '{}' and '{}')", e.port, graph.spec(e.to).name,
          graph.spec(to.producers[e.port].node).name, graph.spec(e.from).name));
    to.producers[e.port] = {e.from, e.output};
    shape.nodes[e.from].consumers[e.output].push_back({e.to, e.port});
  }
  for (NodeId n = 0; n < graph.size(); ++n)
    for (unsigned p = 0; p < shape.nodes[n].producers.size(); ++p)
      if (shape.nodes[n].producers[p].node == kNoProducer)
        throw graph_error(
            fmt::format("input {} of node '{}' has no edge into it", p, graph.spec(n).name));
}

/// Kahn's algorithm; what is left over lies on a cycle.
std::vector<NodeId> order_topologically(const TaskGraph &graph, const GraphShape &shape) {
  std::vector<unsigned> waiting(graph.size());
  std::vector<NodeId> order;
  for (NodeId n = 0; n < graph.size(); ++n) {
    waiting[n] = static_cast<unsigned>(shape.nodes[n].producers.size());
    if (waiting[n] == 0)
      order.push_back(n);
  }
  for (std::size_t i = 0; i < order.size(); ++i)
    for (const auto &consumers : shape.nodes[order[i]].consumers)
      for (const auto &c : consumers)
        if (--waiting[c.node] == 0)
          order.push_back(c.node);
  if (order.size() != graph.size())
    for (NodeId n = 0; n < graph.size(); ++n)
      if (waiting[n] != 0)
        throw graph_error(fmt::format("node '{}' lies on a cycle: a task graph must be acyclic "
                                      "(feedback loops belong in a stream graph)",
                                      graph.spec(n).name));
  return order;
}

} // namespace

GraphShape GraphShape::of(const TaskGraph &graph) {
  check_names(graph);
  GraphShape shape;
  shape.nodes.resize(graph.size());
  for (NodeId n = 0; n < graph.size(); ++n) {
    const NodeSpec &spec = graph.spec(n);
    auto &node = shape.nodes[n];
    node.producers.assign(spec.inputs.size(), OutputRef{kNoProducer, 0});
    node.consumers.resize(spec.outputs.size());
  }
  connect_edges(graph, shape);
  shape.topological_order = order_topologically(graph, shape);

  for (NodeId n : shape.topological_order) {
    const NodeSpec &spec = graph.spec(n);
    auto &node = shape.nodes[n];
    node.per_tag = spec.kind == NodeKind::source;
    for (const OutputRef &p : node.producers)
      node.per_tag = node.per_tag || shape.nodes[p.node].per_tag;
    if (spec.kind == NodeKind::serializer && !node.per_tag)
      throw graph_error(fmt::format("serializer '{}' has no source upstream: it would fire once, "
                                    "so make it an ordinary node",
                                    spec.name));
    node.shared_port.resize(node.producers.size());
    node.counted_port.resize(node.producers.size());
    for (unsigned p = 0; p < node.producers.size(); ++p) {
      const bool producer_per_tag = shape.nodes[node.producers[p].node].per_tag;
      node.shared_port[p] = node.per_tag && !producer_per_tag;
      node.counted_port[p] = producer_per_tag;
    }
    for (const auto &consumers : node.consumers)
      node.has_results = node.has_results || consumers.empty();
  }
  return shape;
}

} // namespace dataflow
