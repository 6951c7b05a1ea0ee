//===- dataflow/task_graph.hpp - Sucuri's dataflow graphs ----------------===//
///
/// \file
/// A task graph: nodes bound to C++ callables, edges from a node's output
/// to an input port of another node. A node fires when every input port
/// holds an operand (docs/dataflow.md, "When nodes fire"). Sources emit a
/// sequence of values, each starting a tagged instance downstream; a
/// serializer fires in tag order. Outputs that no edge consumes are the
/// graph's results.
///
/// The graph is built by an ordinary function (`TaskGraph build(const
/// Input&)`), which every machine of a run calls with the same input, so a
/// node's callable may capture anything: each machine holds its own copy
/// and only the copy where the node runs is used.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/callable.hpp>
#include <dataflow/joined.hpp>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace dataflow {

using NodeId = std::uint32_t;
/// The instance of a node: the index of the source value that started it
/// (0 for nodes that no source feeds).
using Tag = std::uint64_t;

/// A graph that cannot run: a port without an edge, two edges into one
/// port, mismatched types, a cycle, a repeated name. The message names the
/// nodes.
class graph_error : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

enum class NodeKind : std::uint8_t {
  task,       ///< fires once per complete set of operands (per tag)
  source,     ///< fires once and emits a sequence of values, tagged 0, 1, ...
  serializer, ///< like task, one instance at a time, in tag order
};

/// Runs one instance of a node: operands in (one per port), outputs out
/// (one per output).
using NodeBody = std::function<std::vector<Operand>(std::span<const Operand>)>;
/// Runs a source: calls `emit` once per value.
using SourceBody = std::function<void(const std::function<void(Operand)> &emit)>;

struct NodeSpec {
  std::string name;
  NodeKind kind = NodeKind::task;
  std::vector<const Codec *> inputs;
  std::vector<const Codec *> outputs;
  NodeBody body;
  SourceBody source;
  /// Relative cost of one instance, for list scheduling.
  double weight = 1;
  /// Pinned to this machine (and worker), or -1.
  int pinned_machine = -1;
  int pinned_worker = -1;
};

struct Edge {
  NodeId from;
  unsigned output;
  NodeId to;
  unsigned port;
};

class TaskGraph;
class Grid;

namespace detail {
/// "name i,j": the name of node (i, j) of a grid or an outer product.
std::string pair_name(const std::string &name, std::size_t i, std::size_t j);

/// The spec of a node bound to a callable of type F whose parameters from
/// `Lead` on are its ports, run by `body`.
template <class F, std::size_t Lead>
NodeSpec node_spec(std::string name, NodeKind kind, NodeBody body) {
  NodeSpec spec;
  spec.name = std::move(name);
  spec.kind = kind;
  spec.inputs = port_codecs<F, Lead>();
  spec.outputs = output_codecs<typename CallableTraits<F>::Result>();
  spec.body = std::move(body);
  return spec;
}
} // namespace detail

/// One output of a node, as the tail of an edge.
struct OutputRef {
  NodeId node;
  unsigned output;
};

/// A node of a TaskGraph being built: a handle, copied freely and used as
/// the value the node makes (its output 0) wherever an output is expected.
/// Like a pointer, a const handle still changes its node (`weight`, `pin`),
/// so the rows that `TaskGraph::nodes` returns can be kept const.
class Node {
public:
  Node(TaskGraph &graph, NodeId id) : graph_(&graph), id_(id) {}
  NodeId id() const noexcept { return id_; }
  OutputRef output(unsigned k) const { return {id_, k}; }
  operator OutputRef() const { return {id_, 0}; }
  /// The node's relative cost (default 1), for list scheduling.
  const Node &weight(double w) const;
  /// Runs the node on this machine (index into the run's machines).
  const Node &pin(int machine) const;
  /// Runs the node on this worker of this machine.
  const Node &pin(int machine, int worker) const;

private:
  TaskGraph *graph_;
  NodeId id_;
};

class TaskGraph {
public:
  /// A node bound to `fn`: one input port per parameter (taken by value or
  /// const reference), one output per value returned (none for void, k for
  /// `Outputs<T1..Tk>`).
  template <class F> Node node(std::string name, F fn) {
    return add(std::move(name), NodeKind::task, std::move(fn));
  }
  /// A node fed by `inputs` in order (`g.node("c", {a, b.output(1)}, f)`:
  /// a's output 0 to port 0, b's output 1 to port 1); ports they leave open
  /// take later `connect`s.
  template <class F> Node node(std::string name, std::initializer_list<OutputRef> inputs, F fn) {
    return feed(add(std::move(name), NodeKind::task, std::move(fn)), inputs);
  }
  /// Like node(), but its instances run one at a time in tag order.
  template <class F> Node serializer(std::string name, F fn) {
    return add(std::move(name), NodeKind::serializer, std::move(fn));
  }
  /// A serializer fed by `inputs` in order, as node() is.
  template <class F>
  Node serializer(std::string name, std::initializer_list<OutputRef> inputs, F fn) {
    return feed(add(std::move(name), NodeKind::serializer, std::move(fn)), inputs);
  }
  /// A row of `count` nodes, "name 0" ... "name count-1", sharing `fn`:
  /// node k calls `fn(k, ports...)`, its first parameter (any integer type)
  /// the index and the others its input ports, which take `connect`s.
  template <class F> std::vector<Node> nodes(const std::string &name, long count, F fn) {
    check_typed<F>();
    using Index = std::remove_cvref_t<
        typename detail::FirstParameter<typename detail::CallableTraits<F>::Args>::type>;
    static_assert(std::is_integral_v<Index>,
                  "a row of nodes' callable takes the node's index first: [](long k, ...)");
    std::vector<Node> row;
    // Compiled only for a callable that takes an index: one error, the one above.
    if constexpr (std::is_integral_v<Index>) {
      const auto shared = std::make_shared<F>(std::move(fn));
      for (long k = 0; k < count; ++k)
        row.push_back(add_spec(detail::node_spec<F, 1>(
            name + " " + std::to_string(k), NodeKind::task,
            [shared, k](std::span<const Operand> in) {
              return detail::call_with_operands<1>(*shared, in, static_cast<Index>(k));
            })));
    }
    return row;
  }
  /// One node per pair of `rows` and `cols` (an outer product), "name i,j"
  /// fed by `rows[i]` and `cols[j]` on ports 0 and 1, all sharing `fn`;
  /// returned in row-major order (node (i, j) at `i * cols.size() + j`).
  template <class F>
  std::vector<Node> nodes(const std::string &name, std::span<const Node> rows,
                          std::span<const Node> cols, F fn) {
    check_typed<F>();
    const auto shared = std::make_shared<F>(std::move(fn));
    std::vector<Node> pairs;
    for (std::size_t i = 0; i < rows.size(); ++i)
      for (std::size_t j = 0; j < cols.size(); ++j)
        pairs.push_back(feed(add_shared(detail::pair_name(name, i, j), NodeKind::task, shared),
                             {rows[i], cols[j]}));
    return pairs;
  }
  /// A node fed by every node of `inputs` (a join): `fn` takes their values
  /// as one `dataflow::Joined<T>`, in the order of `inputs`, and fires once
  /// it has all of them (per tag).
  template <class F> Node join(std::string name, std::span<const Node> inputs, F fn) {
    check_typed<F>();
    using T = typename detail::JoinedType<typename detail::CallableTraits<F>::Args>::type;
    static_assert(!std::is_void_v<T>, "a join's callable takes one parameter, a "
                                      "dataflow::Joined<T>: [](dataflow::Joined<int> values)");
    // Compiled only for a callable that takes a Joined<T>: one error, the one above.
    if constexpr (!std::is_void_v<T>)
      return add_join<T>(std::move(name), inputs, std::move(fn));
    else
      return Node(*this, 0);
  }
  /// A source: calls `next()` until it returns an empty optional; value i
  /// starts instance (tag) i of the nodes downstream.
  template <class F> Node source(std::string name, F next) {
    using T = typename std::invoke_result_t<F &>::value_type;
    NodeSpec spec;
    spec.name = std::move(name);
    spec.kind = NodeKind::source;
    spec.outputs = {&codec_of<T>()};
    spec.source =
        [next = std::make_shared<F>(std::move(next))](const std::function<void(Operand)> &emit) {
          while (std::optional<T> v = (*next)())
            emit(Operand::of<T>(std::move(*v)));
        };
    return add_spec(std::move(spec));
  }
  /// A source of the given values, in order.
  template <class T> Node source(std::string name, std::vector<T> values) {
    auto shared = std::make_shared<const std::vector<T>>(std::move(values));
    return source(std::move(name), [shared, i = std::size_t{0}]() mutable -> std::optional<T> {
      if (i == shared->size())
        return std::nullopt;
      return (*shared)[i++];
    });
  }

  /// An edge from `from` (a node: its output 0, or `node.output(k)`) to
  /// the lowest input port of `to` that has no edge yet; graph_error if
  /// every port has one.
  void connect(OutputRef from, Node to);
  /// An edge from `from` to input `port` of `to`.
  void connect(OutputRef from, Node to, unsigned port);

  std::size_t size() const noexcept { return nodes_.size(); }
  const NodeSpec &spec(NodeId n) const { return nodes_.at(n); }
  NodeSpec &spec(NodeId n) { return nodes_.at(n); }
  const std::vector<Edge> &edges() const noexcept { return edges_; }
  /// The node with this name; graph_error if there is none.
  NodeId find(const std::string &name) const;

private:
  friend class Grid;

  /// Connects `inputs` to ports 0, 1, ... of `to`.
  Node feed(Node to, std::initializer_list<OutputRef> inputs);
  template <class F> static void check_typed() {
    static_assert(detail::kTypedCallable<F>,
                  "a dataflow node's callable must have one call operator that is not a "
                  "template, so that its ports have types: write the parameter types, as in "
                  "[](int x, const std::string &s) { ... }, not [](auto x) { ... }");
  }
  template <class F> Node add(std::string name, NodeKind kind, F fn) {
    check_typed<F>();
    return add_shared(std::move(name), kind, std::make_shared<F>(std::move(fn)));
  }
  /// A node bound to a callable that other nodes may share.
  template <class F> Node add_shared(std::string name, NodeKind kind, std::shared_ptr<F> fn) {
    return add_spec(
        detail::node_spec<F, 0>(std::move(name), kind, [fn](std::span<const Operand> in) {
          return detail::call_with_operands<0>(*fn, in);
        }));
  }
  template <class T, class F> Node add_join(std::string name, std::span<const Node> inputs, F fn) {
    using Result = typename detail::CallableTraits<F>::Result;
    NodeSpec spec = detail::node_spec<F, 1>(
        std::move(name), NodeKind::task,
        [fn = std::make_shared<F>(std::move(fn))](std::span<const Operand> in) {
          return detail::outputs_of<Result>([&]() -> Result { return (*fn)(Joined<T>(in)); });
        });
    spec.inputs.assign(inputs.size(), &codec_of<T>()); // one port per node of the list
    const Node to = add_spec(std::move(spec));
    for (const Node &from : inputs)
      connect(from, to);
    return to;
  }
  Node add_spec(NodeSpec spec);

  std::vector<NodeSpec> nodes_;
  std::vector<Edge> edges_;
  /// Per node, per input port: an edge goes into it (for connect's next
  /// free port; two edges into one port are GraphShape's to refuse).
  std::vector<std::vector<bool>> fed_;
};

} // namespace dataflow
