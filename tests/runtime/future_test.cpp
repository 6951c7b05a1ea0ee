#include <poc/future.hpp>

#include <gtest/gtest.h>

#include <string>

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

TEST(Future, WhenAll) {
  auto a = poc::make_ready_future(1);
  auto b = poc::make_ready_future(std::string("x"));
  auto all = poc::when_all(a, b);
  EXPECT_TRUE(all.ready());
  EXPECT_NO_THROW(all.get());
  std::vector<poc::future<int>> v;
  v.push_back(poc::make_ready_future(1));
  v.push_back(poc::make_ready_future(2).then([](int) -> int { throw std::logic_error("second"); }));
  auto w = poc::when_all(v);
  EXPECT_THROW(w.get(), std::logic_error);
  poc::future<int> invalid;
  EXPECT_THROW(poc::when_all(invalid), poc::usage_error);
}

} // namespace
