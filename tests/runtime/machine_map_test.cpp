#include "process/placement.hpp"

#include <poc/errors.hpp>
#include <poc/machine.hpp>

#include <gtest/gtest.h>

namespace {

using poc::detail::parse_machine_map;

TEST(MachineMap, ParsesSemicolonsAndLines) {
  auto m = parse_machine_map("a=host1; b = host2\n# comment\nc=host1\n\n");
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0], (std::pair<std::string, std::string>{"a", "host1"}));
  EXPECT_EQ(m[1], (std::pair<std::string, std::string>{"b", "host2"}));
  EXPECT_EQ(m[2], (std::pair<std::string, std::string>{"c", "host1"}));
}

TEST(MachineMap, RejectsMalformedEntries) {
  EXPECT_THROW(parse_machine_map("nohost"), poc::usage_error);
  EXPECT_THROW(parse_machine_map("=h"), poc::usage_error);
  EXPECT_THROW(parse_machine_map("a="), poc::usage_error);
}

TEST(Machine, ConstructsFromStrings) {
  poc::machine a = "m1";
  poc::machine b = std::string("m1");
  poc::machine c = std::string_view("m1");
  EXPECT_EQ(a, b);
  EXPECT_EQ(b, c);
  EXPECT_EQ(a.name(), "m1");
}

TEST(Machine, NewWithoutPocxxIsAUsageError) {
  EXPECT_THROW((void)new ("m1") int(3), poc::usage_error);
  EXPECT_THROW((void)new ("m1") double[4], poc::usage_error);
}

} // namespace
