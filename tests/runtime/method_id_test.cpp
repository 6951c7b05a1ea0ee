#include <poc/gen/method_id.hpp>

#include <gtest/gtest.h>

namespace {

TEST(MethodId, IsFnv1a64) {
  static_assert(poc::method_id("") == 14695981039346656037ull);
  EXPECT_EQ(poc::method_id("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(poc::method_id("foobar"), 0x85944171f73967e8ull);
}

TEST(MethodId, UsableInCaseLabels) {
  constexpr auto f = poc::method_id("ns::T::f(int)");
  constexpr auto g = poc::method_id("ns::T::f(long)");
  static_assert(f != g);
  auto pick = [](std::uint64_t id) {
    switch (id) {
    case f:
      return 1;
    case g:
      return 2;
    default:
      return 0;
    }
  };
  EXPECT_EQ(pick(f), 1);
  EXPECT_EQ(pick(g), 2);
  EXPECT_EQ(pick(0), 0);
}

} // namespace
