// Abandoned barriers (docs/runtime.md section 6): a group member whose
// method ends with an exception, or that is deleted, fails the barriers it
// will not reach; members waiting there (or arriving later) get
// poc::remote_error instead of hanging.

#include "check.hpp"
#include "counter.hpp"

#include <poc/gen/runtime.hpp>

#include <string>
#include <vector>

using demo::Counter;
using demo::Counter_client;
using C = demo::Counter_interface;

namespace {

/// A group of `n` Counters spread over the job.
std::vector<Counter *> make_group(int n) {
  std::vector<Counter *> group;
  for (int i = 0; i < n; ++i)
    group.push_back(Counter_client::create_0("m" + std::to_string(i), i));
  for (int i = 0; i < n; ++i)
    Counter_client::SetProcessGroup_0(group[static_cast<std::size_t>(i)], i, n, group.data());
  return group;
}

/// Starts rounds(r, board) on `c` with a future (only its error is read:
/// a successful reply also carries the copy-back of `board`).
poc::future<void> start_rounds(Counter *c, int r, int *board) {
  poc::Call call(c, C::rounds_0);
  call.args(r, board);
  return call.start_future<void>();
}

void destroy_all(const std::vector<Counter *> &group) {
  for (Counter *c : group)
    if (c)
      poc::destroy(c);
}

int body() {
  check::section("a member that throws before the barrier fails the waiting members", [] {
    auto group = make_group(3);
    int *board = poc::create_array<int>("m0", 3 * 2);
    auto f0 = start_rounds(group[0], 2, board);
    auto f1 = start_rounds(group[1], 2, board);
    auto f2 = Counter_client::fail_0_future(group[2], "boom");
    CHECK(check::throws<poc::remote_error>([&] { f2.get(); }, "boom"));
    CHECK(check::throws<poc::remote_error>([&] { f0.get(); }, "abandoned: member 2"));
    CHECK(check::throws<poc::remote_error>([&] { f1.get(); }, "ended a method with"));
    // The members keep serving; later barriers of the group fail at once.
    CHECK(Counter_client::get_0(group[0]) == 0);
    auto again = start_rounds(group[1], 1, board);
    CHECK(check::throws<poc::remote_error>([&] { again.get(); }, "abandoned: member 2"));
    poc::destroy_array(board);
    destroy_all(group);
  });

  check::section("members arriving after the failure are failed at once", [] {
    auto group = make_group(2);
    int *board = poc::create_array<int>("m1", 2 * 3);
    CHECK(check::throws<poc::remote_error>([&] { Counter_client::fail_0(group[1], "early"); },
                                           "early"));
    auto f0 = start_rounds(group[0], 3, board);
    CHECK(check::throws<poc::remote_error>([&] { f0.get(); }, "barrier #1"));
    poc::destroy_array(board);
    destroy_all(group);
  });

  check::section("a barrier completed before the failure is not affected", [] {
    auto group = make_group(2);
    int *board = poc::create_array<int>("m0", 2 * 1);
    Counter_client::rounds_0_start(group[0], 1, board);
    Counter_client::rounds_0_start(group[1], 1, board);
    poc::sync();
    auto f2 = start_rounds(group[0], 1, board);
    CHECK(check::throws<poc::remote_error>([&] { Counter_client::fail_0(group[1], "late"); },
                                           "late"));
    CHECK(check::throws<poc::remote_error>([&] { f2.get(); }, "barrier #3"));
    poc::destroy_array(board);
    destroy_all(group);
  });

  check::section("deleting a member fails the barrier the others wait at", [] {
    auto group = make_group(3);
    int *board = poc::create_array<int>("m2", 3 * 1);
    auto f0 = start_rounds(group[0], 1, board);
    auto f1 = start_rounds(group[1], 1, board);
    poc::destroy(group[2]);
    group[2] = nullptr;
    CHECK(check::throws<poc::remote_error>([&] { f0.get(); }, "was deleted"));
    CHECK(check::throws<poc::barrier_abandoned>([&] { f1.get(); }, "poc::barrier_abandoned"));
    poc::destroy_array(board);
    destroy_all(group);
  });

  check::section("sync() reports an abandoned barrier of a started call", [] {
    auto group = make_group(2);
    int *board = poc::create_array<int>("m0", 2 * 1);
    Counter_client::rounds_0_start(group[0], 1, board);
    CHECK(check::throws<poc::remote_error>([&] { Counter_client::fail_0(group[1], "gone"); },
                                           "gone"));
    CHECK(check::throws<poc::remote_error>([] { poc::sync(); }, "abandoned: member 1"));
    poc::destroy_array(board);
    destroy_all(group);
  });

  std::printf("%s\n", check::failures ? "SOME CHECKS FAILED" : "ALL CHECKS PASSED");
  return check::failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) { return poc::run(argc, argv, &body); }
