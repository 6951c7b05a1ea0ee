//===- stream_graph.cpp - Building a stream graph ------------------------===//
#include <dataflow/stream_graph.hpp>

#include <fmt/format.h>

#include <unordered_set>

namespace dataflow {

const std::string &Vertex::name() const { return context_->vertex_name(id_); }
bool Vertex::write_operand(StreamId s, Operand value) {
  return context_->write(id_, s, std::move(value));
}
void Vertex::close(StreamId s) { context_->close(id_, s); }
void Vertex::report_operand(Operand value) { context_->report(id_, std::move(value)); }

VertexRef StreamGraph::vertex(std::string name, std::function<void(Vertex &)> on_start) {
  vertices_.push_back({std::move(name), std::move(on_start), nullptr, -1});
  return VertexRef(*this, static_cast<VertexId>(vertices_.size() - 1));
}

StreamId StreamGraph::add_stream(StreamSpec spec) {
  if (spec.tail >= vertices_.size() || spec.head >= vertices_.size())
    throw graph_error("stream: a vertex of another graph");
  streams_.push_back(std::move(spec));
  return static_cast<StreamId>(streams_.size() - 1);
}

void StreamGraph::container(const std::vector<VertexRef> &vertices, int machine) {
  const int index = static_cast<int>(containers_.size());
  ContainerSpec c;
  c.machine = machine;
  for (const VertexRef &v : vertices) {
    VertexSpec &spec = vertex_spec(v.id());
    if (spec.container >= 0)
      throw graph_error(fmt::format("vertex '{}' is in two containers", spec.name));
    spec.container = index;
    c.vertices.push_back(v.id());
  }
  containers_.push_back(std::move(c));
}

void StreamGraph::check() const {
  std::unordered_set<std::string> names;
  for (const VertexSpec &v : vertices_)
    if (!names.insert(v.name).second)
      throw graph_error(fmt::format("two vertices are named '{}'", v.name));
}

std::vector<Place> StreamGraph::place(const std::vector<int> &workers) const {
  const int machines = static_cast<int>(workers.size());
  std::vector<Place> places(vertices_.size());
  int next = 0;
  auto machine_for = [&](int pinned) {
    if (pinned >= machines)
      throw graph_error(
          fmt::format("a container is pinned to machine {}, but the run has {}", pinned, machines));
    return pinned >= 0 ? pinned : next++ % machines;
  };
  // Containers and lone vertices in the order the graph made them.
  std::vector<bool> placed_container(containers_.size());
  for (VertexId v = 0; v < vertices_.size(); ++v) {
    const int c = vertices_[v].container;
    if (c < 0) {
      places[v] = {machine_for(-1), 0};
    } else if (!placed_container[c]) {
      placed_container[c] = true;
      const int m = machine_for(containers_[c].machine);
      for (VertexId member : containers_[c].vertices)
        places[member] = {m, 0};
    }
  }
  return places;
}

} // namespace dataflow
