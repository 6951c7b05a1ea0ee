//===- dataflow/views.hpp - Graphs users can see: DOT, traces, tables ----===//
///
/// \file
/// What `--dot`, `--trace` and `--stats` show of a run (docs/dataflow.md,
/// "Seeing a graph"): the graph drawn with each node in a cluster of its
/// machine and worker; a Chrome trace-event JSON with one track per worker
/// and one slice per instance; a table per node.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/graph_shape.hpp>
#include <dataflow/run_options.hpp>
#include <dataflow/stream_graph.hpp>

#include <string>
#include <vector>

namespace dataflow {

/// A task or stream graph, as far as a picture of it needs.
struct GraphView {
  struct Link {
    std::uint32_t from;
    std::uint32_t to;
    /// The operand type, demangled in full.
    std::string type;
    /// Task graphs: output and port ("0 -> 1"); stream graphs: the stream.
    std::string label;
    /// Task graphs: the producer fires per tag (else once, for every tag).
    bool producer_per_tag = false;
    /// Stream graphs: the stream's index.
    std::uint32_t stream = 0;
  };
  bool streams = false;
  std::vector<std::string> names;
  std::vector<Link> links;

  static GraphView of(const TaskGraph &graph, const GraphShape &shape);
  static GraphView of(const StreamGraph &graph);
};

/// The graph in Graphviz DOT, placed as `stats` says: one cluster per
/// machine, one per worker inside it (task graphs), edges labelled with
/// their operand type as the program spells it (short_type_name), their
/// tooltips naming the output and port (or the stream) and the full type.
std::string dot_text(const GraphView &view, const RunStats &stats);
/// The run as Chrome trace-event JSON (stats.instances).
std::string trace_json(const GraphView &view, const RunStats &stats);
/// stats.nodes from stats.instances.
std::vector<NodeStats> node_stats(const GraphView &view, const RunStats &stats);

/// True if `path` names a picture (.svg, .png) that Graphviz's `dot` draws.
bool dot_renders(const std::string &path);
/// Throws std::runtime_error if `path` needs Graphviz's `dot` and it is not
/// on PATH.
void check_dot_available(const std::string &path);

/// After a run: writes options.dot_file and options.trace_file, fills
/// stats.nodes with options.node_stats, and prints the stats with
/// options.print_stats.
void show_run(const GraphView &view, const RunOptions &options, RunStats &stats);

} // namespace dataflow
