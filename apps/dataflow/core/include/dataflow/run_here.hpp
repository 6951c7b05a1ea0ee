//===- dataflow/run_here.hpp - A graph run in this process, one job at a time -*- C++ -*-===//
///
/// \file
/// `--sequential` for a program that has no sequential version of its own:
/// the graph runs in the calling process, on its thread, one node instance
/// (or vertex job) at a time, with no Scheduler or Worker process and no
/// message. It is the same run as on one machine with one worker (the same
/// firing rules, tags, serializers and results), so it gives the same
/// results as any run on the machines.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/results.hpp>
#include <dataflow/stream_graph.hpp>
#include <dataflow/task_graph.hpp>

namespace dataflow {

/// Runs `graph` in this process, one node instance at a time; throws as
/// `run` does (graph_error before it starts, node_failure if a node throws).
Results run_here(const TaskGraph &graph);
/// Runs `graph` in this process, one vertex job at a time.
Results run_here(const StreamGraph &graph);

} // namespace dataflow
