//===- graph_test.cpp - Building and checking task and stream graphs -----===//
#include <dataflow/graph_shape.hpp>
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
