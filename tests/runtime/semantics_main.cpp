// Every semantic rule of docs/runtime.md, exercised through the hand-written
// Counter client/server. Runs bare (MPI singleton) and under mpirun with
// 1, 2 and 4 ranks; prints the same lines in every configuration.

#include "check.hpp"
#include "counter.hpp"

#include <poc/gen/runtime.hpp>

#include <filesystem>
#include <set>
#include <unordered_set>

using demo::Counter;
using demo::Counter_client;
using C = demo::Counter_interface;

namespace {

Counter *make(int start, const poc::machine &m = "m1") {
  return Counter_client::create_0(m, start);
}

/// Threads of this OS process.
std::size_t thread_count() {
  auto tasks = std::filesystem::directory_iterator("/proc/self/task");
  return static_cast<std::size_t>(std::distance(begin(tasks), end(tasks)));
}

int body() {
  check::section("create, call, result", [] {
    Counter *c = make(40);
    CHECK(poc::is_remote(c));
    CHECK(Counter_client::add_0(c, 2) == 42);
    CHECK(Counter_client::get_0(c) == 42);
    Counter *n = poc::create<Counter>("m2", C::ctor_1, std::string("named"), 7);
    CHECK(Counter_client::name_0(n) == "named");
    CHECK(Counter_client::get_0(n) == 7);
    poc::destroy(c);
    poc::destroy(n);
  });

  check::section("calls of a POC_NONBLOCKING method keep the caller's order", [] {
    // note runs where it arrives when the process is idle, append is queued
    // for a pool thread: interleaved, they must still run in call order,
    // also with a second caller (a process) sending to the same counter.
    Counter *c = make(0);
    Counter *other = make(0, "m2");
    for (int i = 0; i < 2000; ++i) {
      if (i % 3 == 0)
        Counter_client::append_0_start(c, i);
      else
        Counter_client::note_0_start(c, i);
      if (i % 500 == 0)
        Counter_client::add_to_0(other, c, 0);
    }
    std::vector<int> log = Counter_client::log_0(c);
    std::vector<int> expected(2000);
    std::iota(expected.begin(), expected.end(), 0);
    CHECK(log == expected);
    poc::destroy(other);
    poc::destroy(c);
  });

  check::section("copy-back of reference and pointer arguments", [] {
    Counter *c = make(0);
    int x = 21;
    std::string s = "ab";
    Counter_client::twice_0(c, x, &s);
    CHECK(x == 42);
    CHECK(s == "abab");
    Counter_client::twice_0(c, x, nullptr);
    CHECK(x == 84);
    poc::destroy(c);
  });

  check::section("futures copy arguments back when waited for", [] {
    Counter *c = make(0);
    int x = 5;
    std::string s = "xy";
    poc::future<void> f = Counter_client::twice_0_future(c, x, &s);
    CHECK(x == 5 && s == "xy"); // nothing is written before the wait
    f.wait();
    CHECK(x == 10 && s == "xyxy");
    f.get();
    CHECK(x == 10 && s == "xyxy"); // written once
    int y = 1;
    auto g = Counter_client::twice_0_future(c, y, nullptr).then([&] { return y + 1; });
    CHECK(g.get() == 3);
    int a = 2, b = 3;
    auto fa = Counter_client::twice_0_future(c, a, nullptr);
    auto fb = Counter_client::twice_0_future(c, b, nullptr);
    poc::when_all(fa, fb).get();
    CHECK(a == 4 && b == 6);
    int local = 7;
    Counter mine(0);
    Counter_client::twice_0_future(&mine, local, nullptr).get();
    CHECK(local == 14);
    poc::destroy(c);
  });

  check::section("exceptions reach the caller; the process keeps serving", [] {
    Counter *c = make(1);
    CHECK(check::throws<poc::remote_error>([&] { Counter_client::fail_0(c, "boom"); },
                                           "std::invalid_argument: boom"));
    bool threw = false;
    try {
      Counter_client::fail_0(c, "again");
    } catch (const poc::remote_error &e) {
      threw = true;
      CHECK(e.type() == "std::invalid_argument");
      CHECK(e.message() == "again");
      // The type travels by identity: exactly the thrown type, not a base.
      CHECK(e.is<std::invalid_argument>());
      CHECK(e.type_id() == poc::error_type_id<std::invalid_argument>());
      CHECK(!e.is<std::logic_error>());
      CHECK(!e.is<poc::protocol_error>());
    }
    CHECK(threw);
    CHECK(Counter_client::add_0(c, 1) == 2);
    CHECK(check::throws<poc::remote_error>(
        [&] {
          poc::Call call(c, poc::method_id("demo::Counter::nonexistent()"));
          call.invoke();
        },
        "class 'demo::Counter' has no method or constructor with id"));
    try {
      poc::Call call(c, poc::method_id("demo::Counter::nonexistent()"));
      call.invoke();
      CHECK(false);
    } catch (const poc::remote_error &e) {
      CHECK(e.is<poc::protocol_error>());
    }
    CHECK(Counter_client::get_0(c) == 2);
    poc::destroy(c);
  });

  check::section("started calls run in FIFO order per caller", [] {
    Counter *c = make(0);
    for (int i = 0; i < 2000; ++i)
      Counter_client::append_0_start(c, i);
    std::vector<int> log = Counter_client::log_0(c);
    bool in_order = log.size() == 2000;
    for (int i = 0; in_order && i < 2000; ++i)
      in_order = log[static_cast<std::size_t>(i)] == i;
    CHECK(in_order);
    poc::sync();
    poc::destroy(c);
  });

  check::section("messages of 16 to 64 KiB in band arrive whole and in order", [] {
    // In-band data below the 64 KiB out-of-band threshold but above what a
    // posted receive takes (16 KiB) travels as an oversized announcement
    // and its chunk: requests, replies and error replies.
    Counter *c = make(0);
    std::vector<double> mid(5000, 0.5); // 40,000 bytes in band
    for (int i = 0; i < 10000; ++i) {
      Counter_client::append_0_start(c, i);
      if (i % 1000 == 0)
        CHECK(Counter_client::checksum_0(c, mid) == 2500.0);
    }
    std::vector<int> log = Counter_client::log_0(c); // 40,000 bytes back
    bool in_order = log.size() == 10000;
    for (int i = 0; in_order && i < 10000; ++i)
      in_order = log[static_cast<std::size_t>(i)] == i;
    CHECK(in_order);
    const std::string why(30000, 'w');
    CHECK(check::throws<poc::remote_error>([&] { Counter_client::fail_0(c, why); }, why.c_str()));
    poc::sync();
    poc::destroy(c);
  });

  check::section("started creation: the reference is usable at once", [] {
    Counter *c = Counter_client::start_create_0("m1", 5);
    CHECK(poc::is_remote(c));
    Counter_client::add_0_start(c, 10);
    CHECK(Counter_client::add_0(c, 1) == 16);
    poc::sync();
    // A third process may receive the reference before the creation
    // reaches the host: its requests wait for it.
    Counter *x = Counter_client::start_create_0("m1", 7);
    Counter *third = make(0, "m2");
    CHECK(Counter_client::add_to_0(third, x, 3) == 10);
    poc::destroy(third);
    poc::destroy(x);
    Counter *bad =
        poc::start_create<Counter>("m1", poc::method_id("demo::Counter::Counter(double)"), 1.0);
    CHECK(check::throws<poc::remote_error>([] { poc::sync(); },
                                           "class 'demo::Counter' has no method or constructor"));
    CHECK(check::throws<poc::remote_error>([&] { Counter_client::get_0(bad); }, "not constructed"));
    poc::destroy(bad);
    poc::destroy(c);
  });

  check::section("futures: get, then, when_all, errors", [] {
    Counter *c = make(0);
    poc::future<int> f1 = Counter_client::add_0_future(c, 1);
    poc::future<int> f2 = Counter_client::add_0_future(c, 2);
    poc::when_all(f1, f2).wait();
    CHECK(f1.ready() && f2.ready());
    CHECK(f1.get() == 1);
    CHECK(f2.get() == 3);
    auto f3 = Counter_client::add_0_future(c, 4).then([](int v) { return v * 10; });
    CHECK(f3.get() == 70);
    auto bad = Counter_client::fail_0_future(c, "in a future");
    CHECK(check::throws<poc::remote_error>([&] { bad.get(); }, "in a future"));
    poc::sync(); // the future's error is not reported again here
    CHECK(!f1.valid());
    poc::destroy(c);
  });

  check::section("poc::sync waits for started calls and reports their errors", [] {
    Counter *c = make(0);
    for (int i = 0; i < 100; ++i)
      Counter_client::add_0_start(c, 1);
    Counter_client::fail_0_start(c, "started failure");
    Counter_client::add_0_start(c, 1);
    CHECK(check::throws<poc::remote_error>([] { poc::sync(); }, "started failure"));
    poc::sync(); // errors are reported once
    CHECK(Counter_client::get_0(c) == 101);
    poc::destroy(c);
  });

  check::section("references passed to a third process, which calls them", [] {
    Counter *a = make(0, "m1");
    Counter *b = make(100, "m2");
    CHECK(Counter_client::add_to_0(a, b, 5) == 105);
    CHECK(Counter_client::get_0(b) == 105);
    Counter *back = Counter_client::self_0(b);
    CHECK(back == b);
    poc::destroy(a);
    poc::destroy(b);
  });

  check::section("references in containers, equality, null", [] {
    std::vector<Counter *> cs;
    for (int i = 0; i < 5; ++i)
      cs.push_back(make(i + 1));
    CHECK(Counter_client::sum_0(cs[0], cs) == 15);
    std::set<Counter *> set(cs.begin(), cs.end());
    std::unordered_set<Counter *> hashed(cs.begin(), cs.end());
    CHECK(set.size() == 5 && hashed.size() == 5);
    CHECK(Counter_client::same_0(cs[0], cs[1], cs[1]));
    CHECK(!Counter_client::same_0(cs[0], cs[1], cs[2]));
    CHECK(!Counter_client::same_0(cs[0], cs[1], nullptr));
    poc::ProcessGroupMember *base = cs[2];
    CHECK(poc::is_remote(base) && poc::remote_id(base) == poc::remote_id(cs[2]));
    Counter *null_ref = nullptr;
    CHECK(!poc::is_remote(null_ref));
    // Generated clients call a local (here: null) pointer directly, as C++
    // does; the runtime itself refuses a request through null.
    CHECK(check::throws<poc::usage_error>(
        [&] { poc::Call(null_ref, demo::Counter_interface::noop_0).invoke(); }, "null"));
    for (Counter *c : cs)
      poc::destroy(c);
  });

  check::section("remote arrays: elements, ranges, references passed on", [] {
    double *a = poc::create_array<double>("m1", 1024);
    CHECK(poc::is_remote(a) && poc::is_remote(a + 1023));
    poc::element(a, 7) = 3.1415;
    double x = poc::element(a, 7);
    CHECK(x == 3.1415);
    poc::element(a, 7) = 3.25;
    poc::element(a, 7) += 1.0;
    CHECK(static_cast<double>(poc::element(a, 7)) == 4.25);
    CHECK(static_cast<double>(poc::element(a, 2)) == 0.0);
    std::vector<double> in(1000), out(1000);
    for (int i = 0; i < 1000; ++i)
      in[static_cast<std::size_t>(i)] = i * 0.5;
    poc::write(a, 10, in.size(), in.data());
    poc::read(a, 10, out.size(), out.data());
    CHECK(in == out);
    Counter *c = make(0, "m2");
    Counter_client::poke_0(c, a + 100, 5, 2.5); // element 105, set by another process
    CHECK(static_cast<double>(poc::element(a, 105)) == 2.5);
    CHECK(check::throws<poc::remote_error>(
        [&] { (void)static_cast<double>(poc::element(a, 5000)); }, "out_of_range"));
    // A big range travels out of band in both directions.
    std::size_t n = std::size_t{1} << 22;
    double *big = poc::create_array<double>("m2", n);
    std::vector<double> src(n), dst(n, -1.0);
    for (std::size_t i = 0; i < n; ++i)
      src[i] = static_cast<double>(i) * 3.0;
    poc::write(big, 0, n, src.data());
    poc::read(big, 0, n, dst.data());
    CHECK(src == dst);
    CHECK(static_cast<double>(poc::element(big, static_cast<std::ptrdiff_t>(n - 1))) == src[n - 1]);
    poc::destroy_array(big);
    poc::destroy_array(a);
    poc::destroy(c);
  });

  check::section("32 MiB argument and result", [] {
    Counter *c = make(0, "m2");
    std::vector<double> v(std::size_t{1} << 22, 0.25);
    CHECK(Counter_client::checksum_0(c, v) == 0.25 * static_cast<double>(v.size()));
    std::vector<double> r = Counter_client::ramp_0(c, std::uint64_t{1} << 22);
    CHECK(r.size() == (std::size_t{1} << 22) && r[12345] == 12345.0 && r.back() == r.size() - 1.0);
    // The server decodes such arguments into storage its thread keeps:
    // smaller, larger and equal sizes after each other arrive intact.
    const double ramp_sum = 0.5 * static_cast<double>(r.size()) * (r.size() - 1.0);
    std::vector<double> small(1000, 2.0);
    CHECK(Counter_client::checksum_0(c, small) == 2000.0);
    CHECK(Counter_client::checksum_0(c, r) == ramp_sum);
    CHECK(Counter_client::checksum_0(c, v) == 0.25 * static_cast<double>(v.size()));
    CHECK(Counter_client::checksum_0(c, {}) == 0.0);
    // A process calling itself while it serves such an argument.
    CHECK(Counter_client::checksum_after_self_call_0(c, r, c) == ramp_sum);
    CHECK(Counter_client::checksum_after_self_call_0(c, small, c) == 2000.0);
    poc::destroy(c);
  });

  check::section("process groups and barrier, more members than hosts", [] {
    const int n = 6, rounds = 4;
    Counter **group = new Counter *[n];
    for (int i = 0; i < n; ++i)
      group[i] = Counter_client::start_create_0(poc::machines()[0], i);
    for (int i = 0; i < n; ++i)
      Counter_client::SetProcessGroup_0_start(group[i], i, n, group);
    poc::sync();
    for (int i = 0; i < n; ++i)
      CHECK(Counter_client::ID_0(group[i]) == i);
    int *board = poc::create_array<int>("m1", n * rounds);
    for (int i = 0; i < n; ++i)
      Counter_client::rounds_0_start(group[i], rounds, board);
    poc::sync();
    std::vector<int> seen(n * rounds);
    poc::read(board, 0, seen.size(), seen.data());
    bool all = true;
    for (int r = 0; r < rounds; ++r)
      for (int i = 0; i < n; ++i)
        all = all && seen[static_cast<std::size_t>(r * n + i)] == r + 1;
    CHECK(all);
    poc::destroy_array(board);
    for (int i = 0; i < n; ++i)
      poc::destroy(group[i]);
    delete[] group;
  });

  check::section("delete completes queued calls, later calls fail", [] {
    Counter *d = make(0, "m1");
    Counter *w = make(0, "m2");
    for (int i = 0; i < 100; ++i) {
      poc::Call call(d, C::add_to_0);
      call.args(w, 1);
      call.start();
    }
    poc::destroy(d);
    CHECK(Counter_client::get_0(w) == 100);
    CHECK(check::throws<poc::remote_error>([&] { Counter_client::get_0(d); }, "has ended"));
    poc::sync();
    poc::destroy(w);
  });

  check::section("local start and sync", [] {
    std::atomic<int> n{0};
    for (int i = 0; i < 4; ++i)
      poc::start_local([&n](int k) { n += k; }, i + 1);
    poc::start_local([] { throw std::runtime_error("local failure"); });
    CHECK(check::throws<std::runtime_error>([] { poc::sync(); }, "local failure"));
    CHECK(n == 10);
  });

  check::section("idle processes hold no thread; each runs its requests in order", [] {
    // The processes live on this rank, so this rank's threads are counted.
    constexpr int kProcesses = 64;
    const std::size_t threads_before = thread_count();
    std::vector<Counter *> cs;
    for (int i = 0; i < kProcesses; ++i)
      cs.push_back(Counter_client::create_0(poc::this_machine(), i));
    for (Counter *c : cs)
      Counter_client::add_0(c, 0);
    // A thread per process would be 64 more.
    const std::size_t grown = thread_count() - threads_before;
    if (grown > 8)
      std::printf("FAIL: %zu more threads for %d idle processes\n", grown, kProcesses);
    CHECK(grown <= 8);
    // All of them runnable at once: each runs, in the order of its requests.
    for (int round = 0; round < 3; ++round)
      for (Counter *c : cs)
        Counter_client::append_0_start(c, round);
    poc::sync();
    bool ordered = true;
    for (Counter *c : cs)
      ordered = ordered && Counter_client::log_0(c) == std::vector<int>{0, 1, 2};
    CHECK(ordered);
    // A method waiting for another idle process of its host gets it served.
    CHECK(Counter_client::add_to_0(cs[0], cs[1], 5) == 6);
    for (Counter *c : cs)
      poc::destroy(c);
  });

  check::section("machines and misuse", [] {
    CHECK(!poc::machines().empty());
    CHECK(!poc::this_machine().name().empty());
    Counter *c = Counter_client::create_0(poc::this_machine(), 3);
    CHECK(Counter_client::get_0(c) == 3);
    poc::destroy(c);
    CHECK(check::throws<poc::usage_error>([] { (void)new ("m1") int(5); }, "poc++"));
  });

  std::printf("%s\n", check::failures ? "SOME CHECKS FAILED" : "ALL CHECKS PASSED");
  return check::failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) { return poc::run(argc, argv, &body); }
