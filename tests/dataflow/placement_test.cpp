//===- placement_test.cpp - List scheduling and allocation files ---------===//
#include <dataflow/placement.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

using namespace dataflow;
using ::testing::HasSubstr;

namespace {

TaskGraph chain(int length) {
  TaskGraph g;
  Node previous = g.node("n0", [] { return 0; });
  for (int i = 1; i < length; ++i) {
    Node next = g.node("n" + std::to_string(i), [](int x) { return x + 1; });
    g.connect(previous, next);
    previous = next;
  }
  return g;
}

TEST(ListSchedule, AChainStaysOnOneWorker) {
  const TaskGraph g = chain(10);
  const auto places = list_schedule(g, GraphShape::of(g), {2, 2});
  for (const Place &p : places)
    EXPECT_EQ(p, places.front());
}

TEST(ListSchedule, AFanOutSpreadsOverWorkersAndRootsGoRoundTheMachines) {
  TaskGraph g;
  auto root = g.node("root", [] { return 1; });
  for (int i = 0; i < 8; ++i)
    g.connect(root, g.node("leaf" + std::to_string(i), [](int x) { return x; }));
  const auto places = list_schedule(g, GraphShape::of(g), {2, 2});
  std::set<std::pair<int, int>> used;
  for (const Place &p : places)
    used.insert({p.machine, p.worker});
  EXPECT_EQ(used.size(), 4u);

  TaskGraph roots;
  for (int i = 0; i < 4; ++i)
    roots.node("r" + std::to_string(i), [] { return 1; });
  const auto spread = list_schedule(roots, GraphShape::of(roots), {2, 2});
  EXPECT_EQ(spread[0], (Place{0, 0}));
  EXPECT_EQ(spread[1], (Place{1, 0}));
  EXPECT_EQ(spread[2], (Place{0, 1}));
  EXPECT_EQ(spread[3], (Place{1, 1}));
}

TEST(ListSchedule, PinnedNodesStayWherePinned) {
  TaskGraph g = chain(4);
  Node(g, 2).pin(1, 1);
  const auto places = list_schedule(g, GraphShape::of(g), {2, 2});
  EXPECT_EQ(places[2], (Place{1, 1}));
  Node(g, 3).pin(5);
  EXPECT_THROW(
      {
        try {
          list_schedule(g, GraphShape::of(g), {2, 2});
        } catch (const graph_error &e) {
          EXPECT_STREQ(e.what(), "node 'n3' is pinned to machine 5, but the run has 2");
          throw;
        }
      },
      graph_error);
}

class AllocationFile : public ::testing::Test {
protected:
  std::string path = (std::filesystem::temp_directory_path() /
                      ("dataflow-allocation-" + std::to_string(::getpid()) + ".txt"))
                         .string();
  void TearDown() override { std::remove(path.c_str()); }
  void write_text(const std::string &text) { std::ofstream(path) << text; }
  std::string refusal(const TaskGraph &g, const std::vector<int> &workers) {
    try {
      read_allocation(path, g, workers);
    } catch (const graph_error &e) {
      return e.what();
    }
    return "accepted";
  }
};

TEST_F(AllocationFile, RoundTrips) {
  const TaskGraph g = chain(5);
  const auto places = list_schedule(g, GraphShape::of(g), {1, 3});
  write_allocation(path, g, places, {1, 3});
  EXPECT_EQ(read_allocation(path, g, {1, 3}), places);
}

TEST_F(AllocationFile, RefusesAFileThatDoesNotFitNamingFileAndLine) {
  const TaskGraph g = chain(2);
  write_text("# comment\nmachines 2 2\nn0\t0\t0\nn1\t1\t0\n");
  EXPECT_EQ(refusal(g, {2, 2, 2}),
            path + ":2: written for 2 machines with workers [2 2], but this run has 3 with "
                   "[2 2 2]: remove the file to place the graph again");
  write_text("machines 2\nn0\t0\t0\nn7\t0\t0\n");
  EXPECT_EQ(refusal(g, {2}), path + ":3: the graph has no node named 'n7'");
  write_text("machines 2\nn0\t0\t5\n");
  EXPECT_EQ(refusal(g, {2}), path + ":2: node 'n0': no such machine and worker in this run");
  write_text("machines 2\nn0\t0\t0\n");
  EXPECT_THAT(refusal(g, {2}), HasSubstr("node 'n1' is not placed"));
  write_text("machines 2\nn0 0 0\n");
  EXPECT_EQ(refusal(g, {2}), path + ":2: expected node<TAB>machine<TAB>worker");
}

} // namespace
