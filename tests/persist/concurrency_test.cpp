//===- tests/persist/concurrency_test.cpp - Concurrent writers ------------===//
//
// Several threads and processes save, load and remove at once, the same
// object included: every load sees one complete record from some writer.
//
//===----------------------------------------------------------------------===//
#include "poc/persist/error.hpp"
#include "poc/persist/store.hpp"
#include "temp_dir.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace poc::persist;
using poc::persist::testing::TempDir;

namespace {

/// A payload that proves its own integrity: writer id, sequence number, and
/// a length and fill derived from both.
std::vector<std::byte> make_payload(std::uint32_t writer, std::uint32_t seq) {
  std::size_t n = 8 + (writer * 131 + seq * 977) % 6000;
  std::vector<std::byte> v(n);
  std::memcpy(v.data(), &writer, 4);
  std::memcpy(v.data() + 4, &seq, 4);
  for (std::size_t i = 8; i < n; ++i)
    v[i] = static_cast<std::byte>(writer * 31 + seq * 17 + i);
  return v;
}

bool is_valid_payload(const std::vector<std::byte> &v) {
  if (v.size() < 8)
    return false;
  std::uint32_t writer, seq;
  std::memcpy(&writer, v.data(), 4);
  std::memcpy(&seq, v.data() + 4, 4);
  return v == make_payload(writer, seq);
}

TEST(Concurrency, ThreadsOnTheSameObject) {
  TempDir dir;
  Store s(dir.path(), StoreOptions{.durable = false});
  auto a = Address::parse("shared/obj");
  s.save(a, "C", 1, make_payload(99, 0));
  std::atomic<bool> stop{false};
  std::atomic<int> loads{0}, bad{0};
  std::vector<std::thread> writers;
  for (std::uint32_t w = 0; w < 3; ++w)
    writers.emplace_back([&, w] {
      for (std::uint32_t i = 0; i < 300; ++i)
        s.save(a, "C", 1, make_payload(w, i));
    });
  std::thread reader([&] {
    while (!stop) {
      Record r = s.load(a);
      ++loads;
      if (!is_valid_payload(r.payload))
        ++bad;
    }
  });
  for (auto &t : writers)
    t.join();
  stop = true;
  reader.join();
  EXPECT_GT(loads.load(), 0);
  EXPECT_EQ(bad.load(), 0);
  EXPECT_TRUE(is_valid_payload(s.load(a).payload));
  EXPECT_TRUE(s.scan().temporaries.empty());
}

TEST(Concurrency, SavesRaceWithRemovesThatPruneDirectories) {
  TempDir dir;
  Store s(dir.path(), StoreOptions{.durable = false});
  // One thread keeps creating and deleting the only object of a deep
  // directory chain (so remove() prunes it), others save next to it.
  auto victim = Address::parse("deep/er/still/victim");
  std::atomic<bool> stop{false};
  std::thread remover([&] {
    for (std::uint32_t i = 0; !stop; ++i) {
      s.save(victim, "C", 1, make_payload(7, i));
      s.remove(victim);
    }
  });
  std::vector<std::thread> savers;
  for (std::uint32_t w = 0; w < 2; ++w)
    savers.emplace_back([&, w] {
      auto mine = Address::parse("deep/er/still/saver" + std::to_string(w));
      for (std::uint32_t i = 0; i < 300; ++i) {
        s.save(mine, "C", 1, make_payload(w, i));
        ASSERT_TRUE(is_valid_payload(s.load(mine).payload));
        if (i % 3 == 0)
          s.remove(mine);
      }
    });
  for (auto &t : savers)
    t.join();
  stop = true;
  remover.join();
  for (const Address &a : s.list())
    EXPECT_TRUE(is_valid_payload(s.load(a).payload)) << a.str();
}

TEST(Concurrency, ProcessesOnTheSameAndOnDifferentObjects) {
  TempDir dir;
  Store s(dir.path());
  auto shared = Address::parse("job/shared");
  constexpr std::uint32_t Procs = 3, Rounds = 40;
  std::vector<pid_t> kids;
  for (std::uint32_t w = 0; w < Procs; ++w) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int rc = 0;
      try {
        auto own = Address::parse("job/own" + std::to_string(w));
        for (std::uint32_t i = 0; i < Rounds; ++i) {
          s.save(shared, "C", 1, make_payload(w, i));
          s.save(own, "C", 1, make_payload(w, i));
          if (!is_valid_payload(s.load(shared).payload))
            rc = 1;
        }
      } catch (...) {
        rc = 2;
      }
      ::_exit(rc);
    }
    kids.push_back(pid);
  }
  for (pid_t pid : kids) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  EXPECT_TRUE(is_valid_payload(s.load(shared).payload));
  for (std::uint32_t w = 0; w < Procs; ++w)
    EXPECT_EQ(s.load(Address::parse("job/own" + std::to_string(w))).payload,
              make_payload(w, Rounds - 1));
}

} // namespace
