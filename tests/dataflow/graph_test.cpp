//===- graph_test.cpp - Building and checking task and stream graphs -----===//
#include <dataflow/graph_shape.hpp>
#include <dataflow/grid.hpp>
#include <dataflow/results.hpp>
#include <dataflow/stream_graph.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace dataflow;
using ::testing::HasSubstr;

namespace {

template <class F> std::string graph_error_of(F &&f) {
  try {
    f();
  } catch (const graph_error &e) {
    return e.what();
  }
  return "no graph_error";
}

TEST(TaskGraph, PortsAreTypedByTheCallable) {
  TaskGraph g;
  auto n = g.node("n", [](int, const std::string &, std::vector<double>) {
    return Outputs<long, char>{1, 'x'};
  });
  const NodeSpec &spec = g.spec(n.id());
  ASSERT_EQ(spec.inputs.size(), 3u);
  EXPECT_EQ(spec.inputs[0], &codec_of<int>());
  EXPECT_EQ(spec.inputs[1], &codec_of<std::string>());
  EXPECT_EQ(spec.inputs[2], &codec_of<std::vector<double>>());
  ASSERT_EQ(spec.outputs.size(), 2u);
  EXPECT_EQ(spec.outputs[1], &codec_of<char>());
  EXPECT_TRUE(g.spec(g.node("v", [](int) {}).id()).outputs.empty());
}

TEST(TaskGraph, BodyCallsTheCallableWithTheOperands) {
  TaskGraph g;
  auto n = g.node(
      "n", [](int a, const std::string &b) { return Outputs<int, std::string>{a * 2, b + "!"}; });
  std::vector<Operand> in{Operand::of(21), Operand::of(std::string("hi"))};
  const std::vector<Operand> out = g.spec(n.id()).body(in);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].get<int>(), 42);
  EXPECT_EQ(out[1].get<std::string>(), "hi!");
}

TEST(TaskGraph, ConnectRefusesMismatchedTypesAndPorts) {
  TaskGraph g;
  auto a = g.node("a", [] { return 1.5; });
  auto b = g.node("b", [](int x) { return x; });
  EXPECT_THAT(graph_error_of([&] { g.connect(a, b, 0); }),
              HasSubstr("edge 'a' output 0 -> 'b' input 0: the output is double but the input "
                        "takes int"));
  EXPECT_THAT(graph_error_of([&] { g.connect(a, b, 1); }), HasSubstr("node 'b' has no input 1"));
  EXPECT_THAT(graph_error_of([&] { g.connect(a.output(2), b, 0); }),
              HasSubstr("node 'a' has no output 2"));
  EXPECT_THAT(graph_error_of([&] { a.weight(0); }), HasSubstr("weight 0 is not positive"));
}

TEST(TaskGraph, ConnectWithoutAPortTakesTheNextFreeOne) {
  TaskGraph g;
  auto a = g.node("a", [] { return 1; });
  auto s = g.node("s", [] { return std::string("s"); });
  auto c = g.node("c", [](int, const std::string &, int) { return 0; });
  g.connect(a, c, 1 - 1);
  g.connect(s, c);
  g.connect(a, c);
  ASSERT_EQ(g.edges().size(), 3u);
  EXPECT_EQ(g.edges()[1].port, 1u);
  EXPECT_EQ(g.edges()[2].port, 2u);
  EXPECT_EQ(graph_error_of([&] { g.connect(a, c); }),
            "node 'c': every input already has an edge (it has 3)");
  // A port left open between two connected ones is the next free port.
  auto d = g.node("d", [](int, int, int) { return 0; });
  g.connect(a, d, 1);
  g.connect(a, d);
  EXPECT_EQ(g.edges().back().port, 0u);
  g.connect(a, d);
  EXPECT_EQ(g.edges().back().port, 2u);
}

TEST(TaskGraph, ANodeTakesItsProducersAsValues) {
  TaskGraph g;
  auto a = g.node("a", [] { return 20; });
  auto b = g.node("b", {a}, [](int x) { return Outputs<int, std::string>{x + 1, "b"}; });
  auto c = g.node("c", {b.output(1), b.output(0)},
                  [](const std::string &s, int x, int y) { return s + std::to_string(x + y); });
  ASSERT_EQ(g.edges().size(), 3u);
  EXPECT_EQ(g.edges()[0].from, a.id());
  EXPECT_EQ(g.edges()[0].to, b.id());
  EXPECT_EQ(g.edges()[1].output, 1u);
  EXPECT_EQ(g.edges()[1].port, 0u);
  EXPECT_EQ(g.edges()[2].output, 0u);
  EXPECT_EQ(g.edges()[2].port, 1u);
  // The port the inputs left open takes the next connect.
  g.connect(a, c);
  EXPECT_EQ(g.edges().back().port, 2u);
  auto s = g.serializer("s", {g.source("src", std::vector<int>{1})}, [](int x) { return x; });
  EXPECT_EQ(g.edges().back().to, s.id());
  EXPECT_EQ(g.spec(s.id()).kind, NodeKind::serializer);
  EXPECT_THAT(graph_error_of([&] { g.node("d", {a}, [](double) { return 0; }); }),
              HasSubstr("the output is int but the input takes double"));
}

/// The node named `name`'s input edges, as "from:port", by port.
std::vector<std::string> inputs_of(const TaskGraph &g, const std::string &name) {
  std::vector<std::string> in;
  for (unsigned port = 0; port < g.spec(g.find(name)).inputs.size(); ++port)
    for (const Edge &e : g.edges())
      if (e.to == g.find(name) && e.port == port)
        in.push_back(g.spec(e.from).name + ":" + std::to_string(port));
  return in;
}

TEST(TaskGraph, ARowOfNodesSharesOneCallable) {
  TaskGraph g;
  auto tag = g.node("tag", [] { return 100L; });
  const std::vector<Node> row = g.nodes("r", 3, [](int k, long t) { return t + k; });
  ASSERT_EQ(row.size(), 3u);
  EXPECT_EQ(g.spec(row[2].id()).name, "r 2");
  ASSERT_EQ(g.spec(row[1].id()).inputs.size(), 1u); // the index is not a port
  EXPECT_EQ(g.spec(row[1].id()).inputs[0], &codec_of<long>());
  std::vector<Operand> in{Operand::of(100L)};
  EXPECT_EQ(g.spec(row[2].id()).body(in)[0].get<long>(), 102);
  for (const Node &n : row)
    g.connect(tag, n);
  row[0].pin(1).weight(2); // a const handle still changes its node
  EXPECT_EQ(g.spec(row[0].id()).pinned_machine, 1);
  EXPECT_EQ(g.spec(row[0].id()).weight, 2);
  GraphShape::of(g);
  EXPECT_TRUE(g.nodes("none", 0, [](long k) { return k; }).empty());
  EXPECT_EQ(g.spec(g.nodes("s", 1, [](std::size_t k) { return k; })[0].id())
                .body({})[0]
                .get<std::size_t>(),
            0u);
}

TEST(TaskGraph, AnOuterProductFeedsEachPairInRowMajorOrder) {
  TaskGraph g;
  const auto rows = g.nodes("a", 2, [](long k) { return static_cast<int>(k); });
  const auto cols =
      g.nodes("b", 3, [](long k) { return std::string(1, static_cast<char>('x' + k)); });
  const auto pairs =
      g.nodes("c", rows, cols, [](int r, const std::string &c) { return std::to_string(r) + c; });
  ASSERT_EQ(pairs.size(), 6u);
  EXPECT_EQ(g.spec(pairs[5].id()).name, "c 1,2");
  EXPECT_EQ(inputs_of(g, "c 1,2"), (std::vector<std::string>{"a 1:0", "b 2:1"}));
  EXPECT_EQ(inputs_of(g, "c 0,1"), (std::vector<std::string>{"a 0:0", "b 1:1"}));
  std::vector<Operand> in{Operand::of(1), Operand::of(std::string("z"))};
  EXPECT_EQ(g.spec(pairs[5].id()).body(in)[0].get<std::string>(), "1z");
  GraphShape::of(g);
  // The pairs' types must be the rows' and columns'.
  EXPECT_THAT(graph_error_of([&] { g.nodes("d", cols, rows, [](int, int) { return 0; }); }),
              HasSubstr("the output is std::"));
}

TEST(TaskGraph, AJoinTakesAListOfNodesAsOneValue) {
  TaskGraph g;
  const auto parts = g.nodes("p", 4, [](long k) { return std::vector<int>(k, 1); });
  auto join = g.join("sizes", parts, [](const Joined<std::vector<int>> &v) {
    std::string s = std::to_string(v.size()) + ":";
    for (const std::vector<int> &x : v)
      s += " " + std::to_string(x.size());
    return s + " last " + std::to_string(v[v.size() - 1].size());
  });
  EXPECT_EQ(inputs_of(g, "sizes"), (std::vector<std::string>{"p 0:0", "p 1:1", "p 2:2", "p 3:3"}));
  std::vector<Operand> in;
  for (int k = 0; k < 4; ++k)
    in.push_back(Operand::of(std::vector<int>(k, 1)));
  EXPECT_EQ(g.spec(join.id()).body(in)[0].get<std::string>(), "4: 0 1 2 3 last 3");
  GraphShape::of(g);
  // An empty list is a node without inputs: it fires once, with no values.
  auto none = g.join("none", {}, [](Joined<int> v) { return v.empty(); });
  EXPECT_TRUE(g.spec(none.id()).body({})[0].get<bool>());
  EXPECT_THAT(graph_error_of([&] { g.join("x", parts, [](Joined<int>) { return 0; }); }),
              HasSubstr("takes int"));
}

TEST(Results, TheOneResultNeedsNoName) {
  Results r;
  r.declare("sum", 0, codec_of<long>());
  r.add("sum", 0, Operand::of(7L));
  EXPECT_EQ(r.value<long>(), 7);
  EXPECT_THAT(graph_error_of([&] { r.value<int>(); }), HasSubstr("are long, not int"));
  r.add("sum", 0, Operand::of(8L));
  EXPECT_THAT(graph_error_of([&] { r.value<long>(); }), HasSubstr("has 2 values, not one"));
  r.declare("other", 1, codec_of<int>());
  EXPECT_EQ(graph_error_of([&] { r.value<long>(); }),
            "the graph has 2 results, not one: 'other' (output 1), 'sum' (output 0): name the "
            "one to read");
  EXPECT_THAT(graph_error_of([&] { Results().value<long>(); }),
              HasSubstr("the graph has 0 results, not one: name"));
}

TEST(Grid, AWavefrontIsStatedOnce) {
  TaskGraph g;
  using Seen = std::vector<std::size_t>; // i, j, rows, cols, has up, has left
  Grid blocks(g, "b", {5, 3, 2}, {above, left}, [](const Tile &t, const Seen *up, const Seen *l) {
    return Seen{t.i, t.j, t.rows, t.cols, up != nullptr, l != nullptr};
  });
  ASSERT_EQ(blocks.rows(), 3u);
  ASSERT_EQ(blocks.cols(), 2u);
  ASSERT_EQ(g.size(), 6u);
  EXPECT_EQ(g.spec(blocks(0, 0).id()).name, "b 0,0");
  EXPECT_EQ(blocks.back().id(), blocks(2, 1).id());
  EXPECT_TRUE(inputs_of(g, "b 0,0").empty());
  EXPECT_EQ(inputs_of(g, "b 0,1"), (std::vector<std::string>{"b 0,0:0"}));
  EXPECT_EQ(inputs_of(g, "b 1,0"), (std::vector<std::string>{"b 0,0:0"}));
  EXPECT_EQ(inputs_of(g, "b 2,1"), (std::vector<std::string>{"b 1,1:0", "b 2,0:1"}));
  EXPECT_EQ(g.edges().size(), 7u);
  // The body gets its tile (the last row of blocks has 1 row) and null for
  // the neighbours it lacks.
  const Seen up{0, 0, 0, 0, 0, 0};
  std::vector<Operand> one{Operand::of(up)};
  EXPECT_EQ(g.spec(blocks(2, 0).id()).body(one)[0].get<Seen>(), (Seen{2, 0, 1, 2, 1, 0}));
  EXPECT_EQ(g.spec(blocks(0, 1).id()).body(one)[0].get<Seen>(), (Seen{0, 1, 2, 1, 0, 1}));
  std::vector<Operand> two{Operand::of(up), Operand::of(up)};
  EXPECT_EQ(g.spec(blocks(1, 1).id()).body(two)[0].get<Seen>(), (Seen{1, 1, 2, 1, 1, 1}));
  EXPECT_EQ(g.spec(blocks(0, 0).id()).body({})[0].get<Seen>(), (Seen{0, 0, 2, 2, 0, 0}));
  EXPECT_THAT(graph_error_of([&] { blocks(3, 0); }), HasSubstr("3 x 2 blocks, not a block (3, 0)"));
  GraphShape::of(g); // it can run
}

TEST(Grid, EmptyExtentsAreOneEmptyBlockAndOrdinaryPortsStayOpen) {
  TaskGraph g;
  Grid empty(g, "e", {0, 4, 8}, [](const Tile &t) { return t.rows * 10 + t.cols; });
  ASSERT_EQ(empty.rows() * empty.cols(), 1u);
  EXPECT_EQ(g.spec(empty.back().id()).body({})[0].get<std::size_t>(), 4u);

  auto scale = g.node("scale", [] { return 3; });
  Grid scaled(g, "s", {2, 2, 1}, {left}, [](const Tile &t, const int *l, int factor) {
    return (l ? *l : 1) * factor + static_cast<int>(t.j);
  });
  EXPECT_EQ(g.spec(scaled(0, 0).id()).inputs.size(), 1u);
  EXPECT_EQ(g.spec(scaled(0, 1).id()).inputs.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 2; ++j)
      g.connect(scale, scaled(i, j));
  EXPECT_EQ(inputs_of(g, "s 1,1"), (std::vector<std::string>{"s 1,0:0", "scale:1"}));
  std::vector<Operand> in{Operand::of(5), Operand::of(3)};
  EXPECT_EQ(g.spec(scaled(0, 1).id()).body(in)[0].get<int>(), 16);
  GraphShape::of(g);

  TaskGraph bad;
  EXPECT_THAT(graph_error_of([&] {
                Grid(bad, "x", {2, 2, 1}, {above, left},
                     [](const Tile &, const int *) { return 0; });
              }),
              HasSubstr("grid 'x': 2 neighbours are named"));
  EXPECT_THAT(graph_error_of([&] { Grid(bad, "z", {2, 2, 0}, [](const Tile &) { return 0; }); }),
              HasSubstr("block is 0"));
}

TEST(GraphShape, RefusesGraphsThatCannotRun) {
  TaskGraph unfed;
  unfed.node("lonely", [](int x) { return x; });
  EXPECT_EQ(graph_error_of([&] { GraphShape::of(unfed); }),
            "input 0 of node 'lonely' has no edge into it");

  TaskGraph cycle;
  auto a = cycle.node("a", [](int x) { return x; });
  auto b = cycle.node("b", [](int x) { return x; });
  cycle.connect(a, b);
  cycle.connect(b, a);
  EXPECT_THAT(graph_error_of([&] { GraphShape::of(cycle); }), HasSubstr("lies on a cycle"));

  TaskGraph twins;
  twins.node("same", [] { return 1; });
  twins.node("same", [] { return 2; });
  EXPECT_EQ(graph_error_of([&] { GraphShape::of(twins); }), "two nodes are named 'same'");

  TaskGraph lone_serializer;
  auto root = lone_serializer.node("root", [] { return 1; });
  auto s = lone_serializer.serializer("s", [](int x) { return x; });
  lone_serializer.connect(root, s);
  EXPECT_THAT(graph_error_of([&] { GraphShape::of(lone_serializer); }),
              HasSubstr("serializer 's' has no source upstream"));
}

TEST(GraphShape, TagsFlowFromSourcesAndOnceOnlyOperandsAreShared) {
  TaskGraph g;
  auto source = g.source("source", std::vector<int>{1, 2, 3});
  auto constant = g.node("constant", [] { return 10; });
  auto add = g.node("add", [](int a, int b) { return a + b; });
  auto once = g.node("once", [](int c) { return c; });
  g.connect(source, add, 0);
  g.connect(constant, add, 1);
  g.connect(constant, once, 0);
  const GraphShape shape = GraphShape::of(g);
  EXPECT_TRUE(shape.nodes[source.id()].per_tag);
  EXPECT_FALSE(shape.nodes[constant.id()].per_tag);
  EXPECT_TRUE(shape.nodes[add.id()].per_tag);
  EXPECT_FALSE(shape.nodes[once.id()].per_tag);
  EXPECT_EQ(shape.nodes[add.id()].counted_port, (std::vector<bool>{true, false}));
  EXPECT_EQ(shape.nodes[add.id()].shared_port, (std::vector<bool>{false, true}));
  EXPECT_TRUE(shape.nodes[add.id()].has_results);
  EXPECT_FALSE(shape.nodes[constant.id()].has_results);
  EXPECT_EQ(shape.topological_order.size(), 4u);
}

TEST(StreamGraph, ContainersShareAMachine) {
  StreamGraph g;
  auto a = g.vertex("a"), b = g.vertex("b"), c = g.vertex("c"), d = g.vertex("d");
  g.container({a, b});
  g.container({d}, 0);
  const std::vector<Place> places = g.place({1, 1, 1});
  EXPECT_EQ(places[a.id()].machine, places[b.id()].machine);
  EXPECT_EQ(places[d.id()].machine, 0);
  EXPECT_NE(places[c.id()].machine, places[a.id()].machine);
  EXPECT_THAT(graph_error_of([&] { g.container({a}); }), HasSubstr("'a' is in two containers"));
  g.vertex("a");
  EXPECT_EQ(graph_error_of([&] { g.check(); }), "two vertices are named 'a'");
}

} // namespace
