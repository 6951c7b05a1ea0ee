//===- views.cpp - DOT pictures, Chrome traces and per-node tables -------===//
#include <dataflow/views.hpp>

#include <dataflow/command_line.hpp>
#include <dataflow/type_name.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace dataflow {

GraphView GraphView::of(const TaskGraph &graph, const GraphShape &shape) {
  GraphView view;
  for (NodeId n = 0; n < graph.size(); ++n)
    view.names.push_back(graph.spec(n).name);
  for (const Edge &e : graph.edges()) {
    const NodeSpec &from = graph.spec(e.from);
    view.links.push_back({e.from, e.to, from.outputs.at(e.output)->name(),
                          fmt::format("{} -> {}", e.output, e.port),
                          shape.nodes[e.from].per_tag && from.kind != NodeKind::source});
  }
  return view;
}

GraphView GraphView::of(const StreamGraph &graph) {
  GraphView view;
  view.streams = true;
  for (VertexId v = 0; v < graph.vertices(); ++v)
    view.names.push_back(graph.vertex_spec(v).name);
  for (StreamId s = 0; s < graph.streams(); ++s) {
    const StreamSpec &spec = graph.stream_spec(s);
    view.links.push_back(
        {spec.tail, spec.head, spec.codec->name(), fmt::format("stream {}", s), false, s});
  }
  return view;
}

namespace {

/// `text` as the inside of a quoted DOT or JSON string.
std::string quoted(const std::string &text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20)
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
    else
      out += c;
  }
  return out;
}

void write_file(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out)
    throw std::runtime_error(fmt::format("cannot write {}", path));
}

bool on_path(const std::string &program) {
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (std::size_t start = 0; start <= dirs.size();) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos)
      end = dirs.size();
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    if (access((dir + "/" + program).c_str(), X_OK) == 0)
      return true;
    start = end + 1;
  }
  return false;
}

/// Runs Graphviz's dot on the DOT text, writing `path` in the format its
/// extension names.
void render_dot(const std::string &path, const std::string &text) {
  const std::string format = std::filesystem::path(path).extension().string().substr(1);
  const std::string source = path + ".dot";
  write_file(source, text);
  std::string type = "-T" + format, output = "-o" + path;
  char dot[] = "dot";
  char *argv[] = {dot, type.data(), output.data(), const_cast<char *>(source.c_str()), nullptr};
  pid_t child = 0;
  int status = 0;
  if (posix_spawnp(&child, "dot", nullptr, nullptr, argv, environ) != 0 ||
      waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(
        fmt::format("Graphviz's dot could not draw {} (from {})", path, source));
  std::filesystem::remove(source);
}

} // namespace

bool dot_renders(const std::string &path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  return ext == ".svg" || ext == ".png";
}

void check_dot_available(const std::string &path) {
  if (dot_renders(path) && !on_path("dot"))
    throw std::runtime_error(fmt::format(
        "--dot {}: drawing a picture needs Graphviz's 'dot', which is not installed (not on "
        "PATH); --dot {}.dot writes the DOT text, which any Graphviz can draw later",
        path, std::filesystem::path(path).replace_extension().string()));
}

std::string dot_text(const GraphView &view, const RunStats &stats) {
  std::string out = fmt::format("digraph \"{} graph\" {{\n", view.streams ? "stream" : "task");
  out += "  graph [fontname=\"Helvetica\", labeljust=l];\n";
  out += "  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n";
  out += "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (int m = 0; m < stats.machines; ++m) {
    out += fmt::format("  subgraph \"cluster_m{}\" {{\n    label=\"machine {}\";\n", m, m);
    const int workers = view.streams ? 1 : stats.workers.at(m);
    for (int w = 0; w < workers; ++w) {
      std::string nodes;
      for (std::size_t n = 0; n < view.names.size(); ++n)
        if (stats.placement.at(n).machine == m && (view.streams || stats.placement[n].worker == w))
          nodes += fmt::format("{}    n{} [label=\"{}\"];\n", view.streams ? "" : "  ", n,
                               quoted(view.names[n]));
      if (view.streams)
        out += nodes;
      else if (!nodes.empty())
        out += fmt::format("    subgraph \"cluster_m{}_w{}\" {{\n      label=\"worker {}\";\n{}"
                           "    }}\n",
                           m, w, w, nodes);
    }
    out += "  }\n";
  }
  // The label is the type as the program spells it; the tooltip keeps the
  // demangled name in full, which says which template arguments were left out.
  for (const GraphView::Link &l : view.links)
    out += fmt::format("  n{} -> n{} [label=\"{}\", tooltip=\"{}: {}\"];\n", l.from, l.to,
                       quoted(short_type_name(l.type)), quoted(l.label), quoted(l.type));
  out += "}\n";
  return out;
}

namespace {

/// Trace events, one per line.
class TraceWriter {
public:
  void add(const std::string &event) {
    text_ += text_.empty() ? "{\"traceEvents\":[\n" : ",\n";
    text_ += event;
  }
  /// A flow from the end of instance `from` to the start of `to`.
  void flow(const char *name, const InstanceRecord &from, const InstanceRecord &to) {
    const std::uint64_t id = ++flows_;
    add(fmt::format(R"({{"name":"{}","cat":"flow","ph":"s","id":{},"ts":{:.3f},"pid":{},)"
                    R"("tid":{}}})",
                    name, id, from.start_us + from.duration_us, from.machine, from.worker));
    add(fmt::format(R"({{"name":"{}","cat":"flow","ph":"f","bp":"e","id":{},"ts":{:.3f},)"
                    R"("pid":{},"tid":{}}})",
                    name, id, to.start_us, to.machine, to.worker));
  }
  std::string finish() {
    return (text_.empty() ? "{\"traceEvents\":[" : text_) +
           "\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"clock\":\"each machine's steady "
           "clock, in microseconds since that machine began the run\"}}\n";
  }

private:
  std::string text_;
  std::uint64_t flows_ = 0;
};

void task_flows(const GraphView &view, const RunStats &stats, TraceWriter &trace) {
  std::map<std::pair<std::uint32_t, std::uint64_t>, const InstanceRecord *> by_tag;
  for (const InstanceRecord &r : stats.instances)
    by_tag[{r.node, r.tag}] = &r;
  for (const InstanceRecord &to : stats.instances)
    for (const GraphView::Link &l : view.links) {
      if (l.to != to.node)
        continue;
      const auto from = by_tag.find({l.from, l.producer_per_tag ? to.tag : 0});
      if (from != by_tag.end() && from->second->machine != to.machine)
        trace.flow("operand", *from->second, to);
    }
}

void stream_flows(const RunStats &stats, TraceWriter &trace) {
  // Per stream: the jobs that read its data, by the index of their first.
  std::map<std::uint64_t, std::map<std::uint64_t, const InstanceRecord *>> readers;
  for (const InstanceRecord &r : stats.instances)
    for (const auto &span : r.read)
      readers[span[0]][span[1]] = &r;
  for (const InstanceRecord &from : stats.instances)
    for (const auto &span : from.written) {
      const auto &by_first = readers[span[0]];
      auto it = by_first.upper_bound(span[1]);
      if (it == by_first.begin())
        continue; // never read: the stream closed first
      trace.flow("datum", from, *std::prev(it)->second);
    }
}

} // namespace

std::string trace_json(const GraphView &view, const RunStats &stats) {
  TraceWriter trace;
  for (int m = 0; m < stats.machines; ++m) {
    trace.add(fmt::format(
        R"({{"name":"process_name","ph":"M","pid":{},"args":{{"name":"machine {}"}}}})", m, m));
    trace.add(fmt::format(
        R"({{"name":"process_sort_index","ph":"M","pid":{},"args":{{"sort_index":{}}}}})", m, m));
    for (int w = 0; w < stats.workers.at(m); ++w)
      trace.add(fmt::format(
          R"({{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":"worker {}"}}}})", m,
          w, w));
  }
  if (stats.attempt > 1)
    trace.add(fmt::format(R"({{"name":"re-deploy after {} failures","cat":"recovery","ph":"i",)"
                          R"("s":"g","ts":0,"pid":0,"tid":0,"args":{{"checkpointed":{}}}}})",
                          stats.attempt - 1, stats.checkpoint_entries));
  for (const InstanceRecord &r : stats.instances) {
    const std::string extra =
        (r.stolen_from >= 0 ? fmt::format(",\"stolen_from\":{}", r.stolen_from) : "") +
        (r.restored ? ",\"restored\":true" : "");
    trace.add(
        fmt::format(R"({{"name":"{}","cat":"{}","ph":"X","ts":{:.3f},"dur":{:.3f},)"
                    R"("pid":{},"tid":{},"args":{{"tag":{},"bytes_in":{},"bytes_out":{}{}}}}})",
                    quoted(view.names.at(r.node)), view.streams ? "vertex" : "node", r.start_us,
                    r.duration_us, r.machine, r.worker, r.tag, r.bytes_in, r.bytes_out, extra));
    if (r.stolen_from >= 0)
      trace.add(fmt::format(R"({{"name":"stolen from machine {}","cat":"steal","ph":"i","s":"t",)"
                            R"("ts":{:.3f},"pid":{},"tid":{}}})",
                            r.stolen_from, r.start_us, r.machine, r.worker));
  }
  if (view.streams)
    stream_flows(stats, trace);
  else
    task_flows(view, stats, trace);
  return trace.finish();
}

std::vector<NodeStats> node_stats(const GraphView &view, const RunStats &stats) {
  std::vector<NodeStats> nodes(view.names.size());
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    nodes[n].name = view.names[n];
    nodes[n].machine = stats.placement.at(n).machine;
  }
  for (const InstanceRecord &r : stats.instances) {
    NodeStats &s = nodes.at(r.node);
    ++s.instances;
    s.stolen += r.stolen_from >= 0;
    s.total_us += r.duration_us;
    s.bytes_in += r.bytes_in;
    s.bytes_out += r.bytes_out;
  }
  return nodes;
}

void show_run(const GraphView &view, const RunOptions &options, RunStats &stats) {
  if (options.node_stats)
    stats.nodes = node_stats(view, stats);
  if (!options.dot_file.empty()) {
    check_dot_available(options.dot_file);
    if (dot_renders(options.dot_file))
      render_dot(options.dot_file, dot_text(view, stats));
    else
      write_file(options.dot_file, dot_text(view, stats));
  }
  if (!options.trace_file.empty())
    write_file(options.trace_file, trace_json(view, stats));
  if (options.print_stats)
    print_stats(stats);
}

} // namespace dataflow
