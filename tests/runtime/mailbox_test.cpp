// Mailbox ordering inside one MPI singleton: requests from one caller run in
// the order issued, requests from concurrent callers interleave only at
// method boundaries. poc::run can start MPI once per process, so all
// in-process runtime checks live in this one test.

#include "../runtime/counter.hpp"

#include <poc/gen/runtime.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <thread>

namespace {

using demo::Counter;
using demo::Counter_client;
using C = demo::Counter_interface;

TEST(Mailbox, FifoPerCallerUnderConcurrency) {
  int rc = poc::run(0, nullptr, [](int, char **) {
    Counter *c = Counter_client::create_0("m", 0);
    constexpr int kCallers = 4, kCalls = 500;
    std::vector<std::thread> callers;
    for (int t = 0; t < kCallers; ++t)
      callers.emplace_back([=] {
        for (int i = 0; i < kCalls; ++i)
          Counter_client::append_0_start(c, t * 100000 + i);
      });
    for (auto &t : callers)
      t.join();
    poc::sync();
    std::vector<int> log = Counter_client::log_0(c);
    EXPECT_EQ(log.size(), static_cast<std::size_t>(kCallers * kCalls));
    std::map<int, int> next;
    for (int v : log) {
      int caller = v / 100000, i = v % 100000;
      EXPECT_EQ(next[caller], i) << "caller " << caller << " out of order";
      next[caller] = i + 1;
    }
    // A synchronous call after started ones sees all of them.
    for (int i = 0; i < 100; ++i)
      Counter_client::add_0_start(c, 1);
    EXPECT_EQ(Counter_client::get_0(c), 100);
    poc::destroy(c);
    return 0;
  });
  EXPECT_EQ(rc, 0);
}

} // namespace
