//===- tests/persist/address_test.cpp - Address validation ----------------===//
#include "poc/persist/address.hpp"
#include "poc/persist/error.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace poc::persist;
using ::testing::HasSubstr;

namespace {

/// The message of the store_error that parsing \p text throws.
std::string rejection(std::string_view text) {
  try {
    Address::parse(text);
  } catch (const store_error &e) {
    EXPECT_EQ(e.kind(), store_errc::invalid_address);
    return e.what();
  }
  ADD_FAILURE() << "accepted invalid address '" << text << "'";
  return {};
}

TEST(Address, AcceptsPaperForms) {
  EXPECT_EQ(Address::parse("data/set/PageDevice/34").str(), "data/set/PageDevice/34");
  EXPECT_EQ(Address::parse("poc://data/set/PageDevice/34").str(), "data/set/PageDevice/34");
  EXPECT_EQ(Address::parse("x").str(), "x");
  EXPECT_EQ(Address::parse("run_1/v1.2-final/_a").str(), "run_1/v1.2-final/_a");
}

TEST(Address, Components) {
  auto a = Address::parse("data/set/PageDevice/34");
  EXPECT_THAT(a.components(), ::testing::ElementsAre("data", "set", "PageDevice", "34"));
  EXPECT_EQ(a.relative_file(), "data/set/PageDevice/34.pobj");
}

TEST(Address, RejectsPathTricks) {
  EXPECT_THAT(rejection(""), HasSubstr("empty"));
  EXPECT_THAT(rejection("poc://"), HasSubstr("empty"));
  EXPECT_THAT(rejection("/etc/passwd"), HasSubstr("absolute"));
  EXPECT_THAT(rejection("a/../b"), HasSubstr("'..'"));
  EXPECT_THAT(rejection(".."), HasSubstr("'..'"));
  EXPECT_THAT(rejection("a/./b"), HasSubstr("'.'"));
  EXPECT_THAT(rejection("a//b"), HasSubstr("component 2 is empty"));
  EXPECT_THAT(rejection("a/b/"), HasSubstr("component 3 is empty"));
  EXPECT_THAT(rejection(".hidden"), HasSubstr("starts with '.'"));
  EXPECT_THAT(rejection("a/-opt"), HasSubstr("starts with '-'"));
}

TEST(Address, RejectsCharacters) {
  EXPECT_THAT(rejection("a b"), HasSubstr("byte 0x20"));
  EXPECT_THAT(rejection("a\\b"), HasSubstr("'\\'"));
  EXPECT_THAT(rejection("a:b"), HasSubstr("':'"));
  EXPECT_THAT(rejection("caf\xc3\xa9"), HasSubstr("byte 0xc3"));
  EXPECT_THAT(rejection(std::string("a\0b", 3)), HasSubstr("byte 0x00"));
  EXPECT_THAT(rejection("http://x"), HasSubstr("':'"));
}

TEST(Address, RejectsReservedSuffix) {
  EXPECT_THAT(rejection("a/b.pobj"), HasSubstr("reserved suffix"));
  EXPECT_THAT(rejection("a.pobj/b"), HasSubstr("reserved suffix"));
  EXPECT_EQ(Address::parse("a/b.pobjx").str(), "a/b.pobjx");
}

TEST(Address, Limits) {
  std::string comp(Address::max_component_length, 'c');
  EXPECT_EQ(Address::parse(comp).str(), comp);
  EXPECT_THAT(rejection(comp + "c"), HasSubstr("limit is 200"));

  std::string deep;
  for (std::size_t i = 0; i < Address::max_components; ++i)
    deep += (i ? "/" : "") + std::string("d");
  EXPECT_NO_THROW(Address::parse(deep));
  EXPECT_THAT(rejection(deep + "/d"), HasSubstr("more than 32 components"));

  std::string longest;
  for (int i = 0; i < 10; ++i)
    longest += std::string(100, 'x') + "/";
  longest += std::string(Address::max_length - longest.size(), 'y');
  ASSERT_EQ(longest.size(), Address::max_length);
  EXPECT_NO_THROW(Address::parse(longest));
  EXPECT_THAT(rejection(longest + "y"), HasSubstr("limit is 1024"));
  EXPECT_THAT(rejection(std::string(Address::max_length + 1, 'x')), HasSubstr("limit is 1024"));
}

TEST(Address, ErrorNamesTheAddress) {
  try {
    Address::parse("data/../secret");
    FAIL();
  } catch (const store_error &e) {
    EXPECT_EQ(e.address(), "data/../secret");
    EXPECT_THAT(e.what(), HasSubstr("object 'data/../secret'"));
    EXPECT_THAT(e.what(), HasSubstr("invalid address"));
  }
}

TEST(Address, CheckDoesNotThrow) {
  EXPECT_EQ(Address::check("ok/name"), "");
  EXPECT_NE(Address::check("bad//name"), "");
}

TEST(Address, Ordering) {
  EXPECT_LT(Address::parse("a/b"), Address::parse("a/c"));
  EXPECT_EQ(Address::parse("poc://a"), Address::parse("a"));
}

} // namespace
