#include <poc/future.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

TEST(Future, ReadyValue) {
  auto f = poc::make_ready_future(41);
  EXPECT_TRUE(f.valid());
  EXPECT_TRUE(f.ready());
  EXPECT_EQ(f.get(), 41);
  EXPECT_FALSE(f.valid());
  EXPECT_THROW(f.get(), poc::usage_error);
  EXPECT_THROW(f.wait(), poc::usage_error);
}

TEST(Future, DefaultIsInvalid) {
  poc::future<int> f;
  EXPECT_FALSE(f.valid());
  EXPECT_THROW((void)f.ready(), poc::usage_error);
}

TEST(Future, ThenChains) {
  auto f = poc::make_ready_future(std::string("ab"))
               .then([](std::string s) { return s + "c"; })
               .then([](std::string s) { return s.size(); });
  EXPECT_TRUE(f.ready());
  EXPECT_EQ(f.get(), 3u);
  auto v = poc::make_ready_future().then([] { return 7; });
  EXPECT_EQ(v.get(), 7);
}

TEST(Future, ThenPropagatesErrors) {
  auto f = poc::make_ready_future(1).then([](int) -> int { throw std::runtime_error("x"); });
  auto g = std::move(f).then([](int v) { return v + 1; });
  EXPECT_THROW(g.get(), std::runtime_error);
}

TEST(Future, ThenFlattensAFutureResult) {
  // A continuation that starts more work returns a future: the chain is a
  // future of that work's value, not a future of a future.
  auto f = poc::make_ready_future(2)
               .then([](int v) { return poc::make_ready_future(v * 10); })
               .then([](int v) { return v + 1; });
  static_assert(std::is_same_v<decltype(f), poc::future<int>>);
  EXPECT_EQ(f.get(), 21);
  auto g = poc::make_ready_future().then([] { return poc::make_ready_future(); });
  static_assert(std::is_same_v<decltype(g), poc::future<void>>);
  EXPECT_NO_THROW(g.get());
}

TEST(Future, WhenAllGivesTheValues) {
  auto a = poc::make_ready_future(1);
  auto b = poc::make_ready_future(std::string("x"));
  auto none = poc::make_ready_future();
  auto all = poc::when_all(a, none, b);
  static_assert(std::is_same_v<decltype(all), poc::future<std::tuple<int, std::string>>>);
  EXPECT_TRUE(all.ready());
  EXPECT_EQ(all.get(), std::make_tuple(1, std::string("x")));
  auto voids = poc::when_all(poc::make_ready_future(), poc::make_ready_future());
  static_assert(std::is_same_v<decltype(voids), poc::future<void>>);
  EXPECT_NO_THROW(voids.get());

  std::vector<poc::future<int>> v;
  v.push_back(poc::make_ready_future(1));
  v.push_back(poc::make_ready_future(2));
  auto w = poc::when_all(v);
  static_assert(std::is_same_v<decltype(w), poc::future<std::vector<int>>>);
  EXPECT_EQ(w.get(), (std::vector<int>{1, 2}));
}

TEST(Future, WhenAllRethrowsTheFirstError) {
  std::vector<poc::future<int>> v;
  v.push_back(poc::make_ready_future(1));
  v.push_back(poc::make_ready_future(2).then([](int) -> int { throw std::logic_error("second"); }));
  v.push_back(poc::make_ready_future(3).then([](int) -> int { throw std::domain_error("third"); }));
  auto w = poc::when_all(v);
  EXPECT_THROW(w.get(), std::logic_error);
  auto t = poc::when_all(poc::make_ready_future(1),
                         poc::make_ready_future().then([] { throw std::range_error("void"); }));
  EXPECT_THROW(t.get(), std::range_error);
  poc::future<int> invalid;
  EXPECT_THROW(poc::when_all(invalid), poc::usage_error);
}

} // namespace
