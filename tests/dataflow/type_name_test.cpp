//===- type_name_test.cpp - Type names as a program spells them ----------===//
#include <dataflow/operand.hpp>
#include <dataflow/type_name.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

using dataflow::short_type_name;

namespace shop {
/// A user's own type, in a namespace of its own.
struct Order {};
/// A user's template with an argument list of its own: nothing is dropped.
template <class T, class U = int> struct Basket {};
} // namespace shop

namespace {

/// The short name of T, from its name as the library demangles it. (Tests
/// put the call in parentheses: the commas of its template arguments would
/// split EXPECT_EQ's arguments.)
template <class T> std::string short_name() {
  return short_type_name(dataflow::detail::readable_type_name(typeid(T)));
}

TEST(ShortTypeName, MapOfStringToLongIsWrittenAsInTheProgram) {
  const std::string demangled =
      dataflow::detail::readable_type_name(typeid(std::map<std::string, long>));
  EXPECT_GT(demangled.size(), 150u); // what the label used to be
  EXPECT_EQ(short_type_name(demangled), "std::map<std::string, long>");
}

TEST(ShortTypeName, ContainersLoseTheirDefaultAllocatorsComparatorsAndHashes) {
  EXPECT_EQ((short_name<std::vector<double>>()), "std::vector<double>");
  EXPECT_EQ((short_name<std::vector<std::vector<int>>>()), "std::vector<std::vector<int>>");
  EXPECT_EQ((short_name<std::unordered_map<std::string, std::vector<double>>>()),
            "std::unordered_map<std::string, std::vector<double>>");
  EXPECT_EQ((short_name<std::set<long>>()), "std::set<long>");
  EXPECT_EQ((short_name<std::priority_queue<int>>()), "std::priority_queue<int>");
  EXPECT_EQ((short_name<std::unique_ptr<int[]>>()), "std::unique_ptr<int []>");
}

TEST(ShortTypeName, ArgumentsThatAreNotTheDefaultsStay) {
  EXPECT_EQ((short_name<std::map<int, long, std::greater<int>>>()),
            "std::map<int, long, std::greater<int>>");
  EXPECT_EQ((short_name<std::set<long, std::less<void>>>()), "std::set<long, std::less<void>>");
  EXPECT_EQ((short_name<std::vector<int, std::allocator<int>>>()), "std::vector<int>");
}

TEST(ShortTypeName, PairsAndStringsAreWrittenAsInTheProgram) {
  EXPECT_EQ((short_name<std::pair<std::vector<int>, std::vector<int>>>()),
            "std::pair<std::vector<int>, std::vector<int>>");
  EXPECT_EQ((short_name<std::pair<const std::string, long>>()),
            "std::pair<std::string const, long>");
  EXPECT_EQ((short_name<std::string>()), "std::string");
  EXPECT_EQ((short_name<std::wstring>()), "std::wstring");
  EXPECT_EQ((short_name<std::u32string_view>()), "std::u32string_view");
}

TEST(ShortTypeName, UserTypesKeepTheirNamespacesAndArguments) {
  EXPECT_EQ((short_name<shop::Order>()), "shop::Order");
  EXPECT_EQ((short_name<std::vector<shop::Order>>()), "std::vector<shop::Order>");
  EXPECT_EQ((short_name<shop::Basket<std::string>>()), "shop::Basket<std::string, int>");
  EXPECT_EQ((short_name<std::map<shop::Order *, long>>()), "std::map<shop::Order*, long>");
}

TEST(ShortTypeName, FunctionTypesAreReadInsideTheirParentheses) {
  EXPECT_EQ((short_name<std::function<std::vector<int>(std::string, std::vector<double>)>>()),
            "std::function<std::vector<int> (std::string, std::vector<double>)>");
}

TEST(ShortTypeName, TheStandardLibrarysInlineNamespacesAreLeftOut) {
  // libc++'s spelling, which a program built with libstdc++ never demangles.
  EXPECT_EQ(short_type_name("std::__1::vector<std::__1::basic_string<char, "
                            "std::__1::char_traits<char>, std::__1::allocator<char> >, "
                            "std::__1::allocator<std::__1::basic_string<char, "
                            "std::__1::char_traits<char>, std::__1::allocator<char> > > >"),
            "std::vector<std::string>");
}

TEST(ShortTypeName, ANameWithUnbalancedBracketsComesBackUnchanged) {
  EXPECT_EQ(short_type_name("std::vector<int"), "std::vector<int");
  EXPECT_EQ(short_type_name("f(int))"), "f(int))");
  EXPECT_EQ(short_type_name("a>b"), "a>b");
}

} // namespace
