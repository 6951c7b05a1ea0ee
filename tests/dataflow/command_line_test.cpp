//===- command_line_test.cpp - The dataflow programs' options -------------===//
#include <dataflow/command_line.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

using namespace dataflow;

namespace {

/// Parses `args` (after the program name) with `line`; returns the operands.
std::vector<std::string> parse(CommandLine &line, std::vector<std::string> args) {
  std::vector<char *> argv{const_cast<char *>("program")};
  for (std::string &a : args)
    argv.push_back(a.data());
  return line.parse(static_cast<int>(argv.size()), argv.data());
}

TEST(CommandLine, OptionNamesWithAndWithoutDashesAreTheSameOption) {
  CommandLine line("program", "");
  long count = 0, size = 0;
  line.option("count", "N", count, 1);
  line.option("--size", "N", size, 1);
  EXPECT_EQ(parse(line, {"--count", "7", "--size=3", "x"}), std::vector<std::string>{"x"});
  EXPECT_EQ(count, 7);
  EXPECT_EQ(size, 3);
  try {
    parse(line, {"--count", "0"});
    FAIL() << "no usage_error";
  } catch (const usage_error &e) {
    EXPECT_STREQ(e.what(), "--count needs a number of at least 1, got 0");
  }
  EXPECT_NE(line.usage().find("--count"), std::string::npos);
}

TEST(CommandLine, DotTraceAndStatsReachTheRunOptions) {
  CommandLine line("program", "");
  EXPECT_TRUE(line.run_options().dot_file.empty());
  EXPECT_FALSE(line.run_options().node_stats);
  EXPECT_EQ(parse(line, {"--dot", "g.dot", "--trace=t.json", "--stats", "x"}),
            std::vector<std::string>{"x"});
  EXPECT_EQ(line.run_options().dot_file, "g.dot");
  EXPECT_EQ(line.run_options().trace_file, "t.json");
  EXPECT_TRUE(line.run_options().node_stats);
  EXPECT_TRUE(line.stats());
}

TEST(CommandLine, ANameWithOneDashIsRefused) {
  CommandLine line("program", "");
  long count = 0;
  EXPECT_THROW(line.option("-c", "N", count, 1), std::invalid_argument);
  EXPECT_THROW(line.option("", "N", [](const std::string &) {}), std::invalid_argument);
}

TEST(CommandLine, StealAloneMeansOn) {
  for (const std::vector<std::string> &args : {std::vector<std::string>{"--steal"},
                                               {"--steal", "--workers", "2"},
                                               {"--steal", "on"},
                                               {"--steal=on"}}) {
    CommandLine line("program", "");
    parse(line, args);
    EXPECT_TRUE(line.run_options().steal) << args.size() << " arguments";
  }
  CommandLine off("program", "");
  parse(off, {"--steal", "off", "a"});
  EXPECT_FALSE(off.run_options().steal);
  CommandLine bad("program", "");
  EXPECT_THROW(parse(bad, {"--steal", "maybe"}), usage_error);
  // An option without a value given alone still needs one.
  CommandLine workers("program", "");
  EXPECT_THROW(parse(workers, {"--workers"}), usage_error);
}

} // namespace
