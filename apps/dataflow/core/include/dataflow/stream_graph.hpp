//===- dataflow/stream_graph.hpp - DtCraft's stream graphs ---------------===//
///
/// \file
/// A stream graph (after DtCraft, Huang, Lin and Wong, ICCAD 2017): vertices with state of their
/// own, and long-lived streams between them, each with a callback that the head vertex runs per
/// datum and that keeps the stream open or closes it. Cycles are allowed; the graph ends when every
/// stream is closed. Containers group vertices onto one machine: a stream inside a container is a
/// local queue, a stream between containers sends messages.
///
/// A vertex runs one callback at a time (its start callback first), so its
/// state needs no lock; different vertices run concurrently.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/operand.hpp>
#include <dataflow/placement.hpp>
#include <dataflow/task_graph.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace dataflow {

using VertexId = std::uint32_t;
using StreamId = std::uint32_t;

/// What a stream callback returns.
enum class Signal : std::uint8_t {
  keep,  ///< the stream stays open
  close, ///< the stream closes (at both ends); later data on it is dropped
};

/// A stream carrying values of type T.
template <class T> struct Stream {
  StreamId id;
};

class VertexContext;

/// The vertex a callback runs for: writes to its streams, closes them,
/// reports results.
class Vertex {
public:
  Vertex(VertexContext &context, VertexId id) : context_(&context), id_(id) {}
  const std::string &name() const;
  VertexId id() const noexcept { return id_; }
  /// Sends `value` on stream `s`, whose tail this vertex must be. False if
  /// the stream is closed (the value is dropped).
  template <class T> bool write(Stream<T> s, T value) {
    return write_operand(s.id, Operand::of<T>(std::move(value)));
  }
  /// Closes stream `s` (this vertex is its tail or its head).
  void close(StreamId s);
  template <class T> void close(Stream<T> s) { close(s.id); }
  /// Adds a value to this vertex's results (the type it declared with
  /// `reports<T>()`).
  template <class T> void report(T value) { report_operand(Operand::of<T>(std::move(value))); }

private:
  bool write_operand(StreamId s, Operand value);
  void report_operand(Operand value);
  VertexContext *context_;
  VertexId id_;
};

/// What the machine running a vertex offers its callbacks.
class VertexContext {
public:
  virtual ~VertexContext() = default;
  virtual const std::string &vertex_name(VertexId v) const = 0;
  virtual bool write(VertexId from, StreamId s, Operand value) = 0;
  virtual void close(VertexId from, StreamId s) = 0;
  virtual void report(VertexId from, Operand value) = 0;
};

struct VertexSpec {
  std::string name;
  std::function<void(Vertex &)> on_start;
  /// The type of what it reports, or null.
  const Codec *reports = nullptr;
  int container = -1;
};

struct StreamSpec {
  VertexId tail;
  VertexId head;
  const Codec *codec;
  std::function<Signal(Vertex &, const Operand &)> on_datum;
};

struct ContainerSpec {
  std::vector<VertexId> vertices;
  /// The machine it runs on, or -1: containers go round the machines.
  int machine = -1;
};

class StreamGraph;

/// A vertex of a StreamGraph being built.
class VertexRef {
public:
  VertexRef(StreamGraph &graph, VertexId id) : graph_(&graph), id_(id) {}
  VertexId id() const noexcept { return id_; }
  /// Declares the type of the values the vertex reports.
  template <class T> VertexRef &reports();

private:
  StreamGraph *graph_;
  VertexId id_;
};

class StreamGraph {
public:
  /// A vertex; `on_start` runs once, before any datum reaches it.
  VertexRef vertex(std::string name, std::function<void(Vertex &)> on_start = {});
  /// A stream from `tail` to `head` carrying T; `on_datum(head, value)` runs
  /// at the head for every value and returns Signal::keep or Signal::close.
  template <class T, class F> Stream<T> stream(VertexRef tail, VertexRef head, F on_datum) {
    StreamSpec spec{tail.id(), head.id(), &codec_of<T>(),
                    [f = std::move(on_datum)](Vertex &v, const Operand &value) {
                      return f(v, value.get<T>());
                    }};
    return Stream<T>{add_stream(std::move(spec))};
  }
  /// Puts `vertices` into one container, on `machine` (-1: any).
  void container(const std::vector<VertexRef> &vertices, int machine = -1);

  std::size_t vertices() const noexcept { return vertices_.size(); }
  std::size_t streams() const noexcept { return streams_.size(); }
  const VertexSpec &vertex_spec(VertexId v) const { return vertices_.at(v); }
  VertexSpec &vertex_spec(VertexId v) { return vertices_.at(v); }
  const StreamSpec &stream_spec(StreamId s) const { return streams_.at(s); }
  /// graph_error if two vertices share a name.
  void check() const;
  /// Each vertex's machine (worker 0): containers go round the machines in
  /// the order they were made, vertices outside containers too.
  std::vector<Place> place(const std::vector<int> &workers) const;

private:
  StreamId add_stream(StreamSpec spec);

  std::vector<VertexSpec> vertices_;
  std::vector<StreamSpec> streams_;
  std::vector<ContainerSpec> containers_;
};

template <class T> VertexRef &VertexRef::reports() {
  graph_->vertex_spec(id_).reports = &codec_of<T>();
  return *this;
}

} // namespace dataflow
