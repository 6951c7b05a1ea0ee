// Dynamic processes (docs/runtime.md section 11): hosts started with
// MPI_Comm_spawn, in batches (poc::reserve) and when the job has no
// capacity (POC_HOST_CAPACITY), on a configured host that runs no rank
// (POC_MACHINES far=localhost), and processes on hosts that share no
// permanent link calling each other through cached and uncached
// connections. Run bare, under mpirun -n 1 and -n 3 (ctest sets the
// environment, see CMakeLists.txt).

#include "../runtime/check.hpp"
#include "worker.hpp"

#include <poc/gen/runtime.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

using spawn_test::Worker;
using spawn_test::Worker_client;
using W = spawn_test::Worker_interface;

namespace {

bool spawned(const void *p) { return poc::remote_id(p).host >= poc::host_count(); }

/// What Worker::drive returns for peers whose values are `values` (which
/// it advances by 6 per round).
std::int64_t expected_drive(std::vector<int> &values, int rounds) {
  std::int64_t digest = 0;
  for (int r = 0; r < rounds; ++r)
    for (int &v : values) {
      digest += (v + 1) + (v + 6) + 10000 + 19999 + 1000;
      v += 6;
    }
  return digest;
}

void batches_and_calls() {
  check::section("a batch of hosts is spawned and serves every kind of call", [] {
    poc::reserve("anywhere", 2);
    Worker *a = poc::create<Worker>("anywhere", W::ctor_0, 10);
    Worker *b = poc::create<Worker>("anywhere", W::ctor_0, 20);
    CHECK(spawned(a) && spawned(b));
    CHECK(poc::remote_id(a).host != poc::remote_id(b).host);
    CHECK(Worker_client::host_0(a) == poc::remote_id(a).host);
    CHECK(Worker_client::add_0(a, 1) == 11);
    Worker_client::add_0_start(b, 5);
    poc::future<int> f = Worker_client::add_0_future(b, 1);
    poc::sync();
    CHECK(f.get() == 26);
    std::vector<double> big(100000, 2.0);
    CHECK(Worker_client::checksum_0(a, big) == 200000.0);
    CHECK(Worker_client::ramp_0(b, 70000).back() == 69999.0);
    CHECK(check::throws<poc::remote_error>([&] { Worker_client::fail_0(a, "boom"); }, "boom"));
    // A spawned host creates processes on its own batch.
    int nearby = Worker_client::create_nearby_0(a);
    CHECK(nearby >= poc::host_count());
    poc::destroy(a);
    CHECK(check::throws<poc::remote_error>([&] { Worker_client::get_0(a); }, "has ended"));
    // b is left alive: the end of the job ends it.
  });
}

/// Two batches: processes in one call processes in the other through
/// connections (handshake relayed through the spawning rank); with the
/// cache and without it the results are the same.
void connections(bool job_ranks) {
  check::section("cached and uncached connections give identical results", [&] {
    std::vector<Worker *> clients;
    if (job_ranks) {
      // Clients on ranks 1 and 2 of the job (placement fills them first).
      clients.push_back(poc::create<Worker>("anywhere", W::ctor_0, 0));
      clients.push_back(poc::create<Worker>("anywhere", W::ctor_0, 0));
      CHECK(!spawned(clients[0]) && !spawned(clients[1]));
    } else {
      poc::reserve("anywhere", 2);
      clients.push_back(poc::create<Worker>("anywhere", W::ctor_0, 0));
      clients.push_back(poc::create<Worker>("anywhere", W::ctor_0, 0));
    }
    poc::reserve("anywhere", 2);
    std::vector<Worker *> servers{poc::create<Worker>("anywhere", W::ctor_0, 100),
                                  poc::create<Worker>("anywhere", W::ctor_0, 200)};
    // The servers are a later batch than the clients: no permanent link.
    for (Worker *s : servers)
      CHECK(spawned(s) && poc::remote_id(s).host > poc::remote_id(clients[1]).host);
    std::vector<int> values{100, 200};
    const int rounds = 3;
    for (int cache : {8, 0, 8}) {
      for (Worker *c : clients)
        Worker_client::set_cache_0(c, cache);
      std::vector<std::uint64_t> before = Worker_client::stats_0(clients[0]);
      std::int64_t want = 0;
      std::int64_t got = 0;
      for (Worker *c : clients) {
        want += expected_drive(values, rounds);
        got += Worker_client::drive_0(c, servers, rounds);
      }
      std::printf("  cache %d: digest %lld (expected %lld)\n", cache, static_cast<long long>(got),
                  static_cast<long long>(want));
      CHECK(got == want);
      std::vector<std::uint64_t> after = Worker_client::stats_0(clients[0]);
      std::uint64_t opened = after[0] - before[0];
      std::printf("  cache %d: client 0 opened %llu connections\n", cache,
                  static_cast<unsigned long long>(opened));
      // 6 requests per peer and round; uncached, each synchronous one finds
      // its connection idle and reconnects.
      if (cache == 0)
        CHECK(opened >= static_cast<std::uint64_t>(rounds * 2 * 4));
      else
        CHECK(opened <= 2);
    }
    for (Worker *s : servers)
      CHECK(Worker_client::get_0(s) == values[s == servers[0] ? 0 : 1]);
  });
}

void capacity() {
  check::section("a job without capacity spawns hosts, in batches", [] {
    // POC_HOST_CAPACITY=1, POC_SPAWN_BATCH=2: host 0 takes one process,
    // then each spawn starts two hosts.
    std::vector<Worker *> ws;
    for (int i = 0; i < 4; ++i)
      ws.push_back(poc::create<Worker>("anywhere", W::ctor_0, i));
    CHECK(poc::remote_id(ws[0]).host == 0);
    for (int i = 1; i < 4; ++i)
      CHECK(spawned(ws[i]));
    CHECK(poc::remote_id(ws[1]).host + 1 == poc::remote_id(ws[2]).host);
    CHECK(poc::remote_id(ws[3]).host == poc::remote_id(ws[2]).host + 1);
    int sum = 0;
    for (Worker *w : ws)
      sum += Worker_client::add_0(w, 1);
    CHECK(sum == 0 + 1 + 2 + 3 + 4);
    for (Worker *w : ws)
      poc::destroy(w);
  });
}

void configured_hosts() {
  check::section("a machine on a host that runs no rank gets spawned hosts", [] {
    Worker *w = poc::create<Worker>("far", W::ctor_0, 7);
    CHECK(spawned(w));
    CHECK(Worker_client::add_0(w, 1) == 8);
    poc::destroy(w);
  });
  check::section("a host name that cannot be reached is an error, not a hang", [] {
    CHECK(check::throws<poc::usage_error>([] { poc::create<Worker>("ghost", W::ctor_0, 1); },
                                          "does not resolve"));
    CHECK(check::throws<poc::usage_error>([] { poc::reserve("ghost", 2); }, "does not resolve"));
  });
}

} // namespace

int main(int argc, char **argv) {
  return poc::run(argc, argv, [](int c, char **v) {
    std::string mode = c > 1 ? v[1] : "";
    if (mode == "--capacity") {
      capacity();
    } else if (mode == "--machines") {
      configured_hosts();
    } else {
      // Placement fills the hosts with the fewest processes first, so the
      // connection test's clients and servers land where it expects only
      // when it runs first.
      connections(poc::host_count() >= 3);
      batches_and_calls();
    }
    std::printf("%s\n", check::failures ? "SOME CHECKS FAILED" : "ALL CHECKS PASSED");
    return check::failures ? 1 : 0;
  });
}
