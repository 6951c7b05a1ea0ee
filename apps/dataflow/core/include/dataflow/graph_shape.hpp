//===- dataflow/graph_shape.hpp - A task graph checked and analysed ------===//
///
/// \file
/// What the schedulers need to know about a TaskGraph's structure, computed
/// once per run on every machine: each port's producer, each output's
/// consumers, which nodes run once and which once per source value, and a
/// topological order. Building it checks the graph (graph_error).
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/task_graph.hpp>

#include <vector>

namespace dataflow {

struct GraphShape {
  struct Consumer {
    NodeId node;
    unsigned port;
  };
  struct NodeShape {
    /// The producer of each input port.
    std::vector<OutputRef> producers;
    /// The consumers of each output; an output with none is a result.
    std::vector<std::vector<Consumer>> consumers;
    /// Fires once per value of a source upstream (else exactly once).
    bool per_tag = false;
    /// Ports whose producer fires once while this node fires per tag: the
    /// one operand serves every tag.
    std::vector<bool> shared_port;
    /// Ports whose operand count is only known when the producer ends.
    std::vector<bool> counted_port;
    /// True if an output has no consumer (the node contributes results).
    bool has_results = false;
  };

  std::vector<NodeShape> nodes;
  /// Every node after all its producers.
  std::vector<NodeId> topological_order;

  /// Checks `graph` (every port fed by exactly one edge of the right type,
  /// no cycle, distinct names) and analyses it.
  static GraphShape of(const TaskGraph &graph);
};

} // namespace dataflow
