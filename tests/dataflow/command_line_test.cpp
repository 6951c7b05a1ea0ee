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
  EXPECT_TRUE(line.run_options().print_stats);
  EXPECT_TRUE(line.stats());
}

TEST(CommandLine, SizeOptionsAndAnOperandCount) {
  CommandLine line("program", "A B");
  std::size_t block = 0;
  line.option("--block", "N", block, 2);
  line.operands(2, "needs two files, A and B");
  const std::vector<std::string> operands = parse(line, {"--block", "64", "a", "b"});
  EXPECT_EQ(block, 64u);
  EXPECT_NO_THROW(line.check_operands(operands));
  try {
    line.check_operands({"a"});
    FAIL() << "no usage_error";
  } catch (const usage_error &e) {
    EXPECT_STREQ(e.what(), "needs two files, A and B");
  }
  try {
    parse(line, {"--block", "1"});
    FAIL() << "no usage_error";
  } catch (const usage_error &e) {
    EXPECT_STREQ(e.what(), "--block needs a number of at least 2, got 1");
  }
}

TEST(CommandLine, ProgramMainChecksTheOperandCountAfterHelp) {
  CommandLine line("program", "A");
  line.operands(1, "needs one file, A");
  bool ran = false;
  const auto body = [&](const std::vector<std::string> &) { ran = true; };
  std::vector<char *> none{const_cast<char *>("program")};
  EXPECT_EQ(program_main(line, 1, none.data(), body), 2);
  EXPECT_FALSE(ran);
  std::vector<char *> help{const_cast<char *>("program"), const_cast<char *>("--help")};
  EXPECT_EQ(program_main(line, 2, help.data(), body), 0);
  EXPECT_FALSE(ran);
  CommandLine again("program", "A");
  again.operands(1, "needs one file, A");
  std::vector<char *> one{const_cast<char *>("program"), const_cast<char *>("a")};
  EXPECT_EQ(program_main(again, 2, one.data(), body), 0);
  EXPECT_TRUE(ran);
}

TEST(CommandLine, WithoutAnOperandCountAProgramTakesNone) {
  CommandLine line("program");
  EXPECT_NO_THROW(line.check_operands({}));
  try {
    line.check_operands({"a"});
    FAIL() << "no usage_error";
  } catch (const usage_error &e) {
    EXPECT_STREQ(e.what(), "takes no operands");
  }
  EXPECT_EQ(line.usage().rfind("usage: program [options]\n", 0), 0u);
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
