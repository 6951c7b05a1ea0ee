//===- dataflow/placement.hpp - Which worker runs which node -------------===//
///
/// \file
/// Sucuri's partitioning (Silva et al., Task Scheduling in Sucuri Dataflow Library, 2016, section
/// III): list scheduling over the workers of all machines, with three levels of communication cost
/// (same worker, same machine, another machine) instead of measured latencies, and an allocation
/// file that a first run writes and later runs read, so that list scheduling runs once per graph.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/graph_shape.hpp>

#include <string>
#include <vector>

namespace dataflow {

/// Where one node runs.
struct Place {
  int machine = 0;
  int worker = 0;
  bool operator==(const Place &) const = default;
};

/// The cost of an edge between two nodes, in units of a node of weight 1,
/// by how far apart they are placed. An edge within one worker costs 0.
struct PlacementCosts {
  double same_machine = 0.01;
  double other_machine = 0.1;
};

/// List scheduling: the nodes in topological order, each on the worker
/// where it can start first, given when its producers finish plus the cost
/// of the edge at its level, and when the worker is free; ties go to the
/// worker of the heaviest producer, then to its machine. Nodes without
/// producers go round the workers of all machines in turn. Pinned nodes
/// stay where they are pinned. `workers[m]` is machine m's worker count.
std::vector<Place> list_schedule(const TaskGraph &graph, const GraphShape &shape,
                                 const std::vector<int> &workers, const PlacementCosts &costs = {});

/// Writes `places` to an allocation file (one line per node: name, machine,
/// worker), replacing it atomically.
void write_allocation(const std::string &path, const TaskGraph &graph,
                      const std::vector<Place> &places, const std::vector<int> &workers);

/// Reads an allocation file for `graph` on machines with `workers` workers;
/// graph_error naming the file and line if it does not fit them.
std::vector<Place> read_allocation(const std::string &path, const TaskGraph &graph,
                                   const std::vector<int> &workers);

} // namespace dataflow
