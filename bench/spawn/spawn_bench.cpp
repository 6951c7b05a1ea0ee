// Dynamic processes (docs/runtime.md section 11), each result a ratio
// against a baseline measured in the same run:
//  * spawn latency per host: poc::reserve(m, 1) repeated vs one batch
//    poc::reserve(m, k), and vs a raw MPI_Comm_spawn of a trivial program;
//  * the paper's ReadIntoServerCache pattern: C clients each start P small
//    commands spread over S servers (clients and servers on hosts spawned
//    in different batches, so they talk over connections), with the
//    connection cache vs without it (the paper's connect per call).
//
//   spawn_bench [--clients C] [--commands P] [--servers S] [--spawns K]
//   (run bare or under mpirun -n 1; defaults 4 x 128 over 8, K = 4)

#include "../common/bench_report.hpp"
#include "page_server.hpp"

#include <fmt/format.h>
#include <poc/gen/runtime.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using bench::clock_type;
using bench::median;
using bench::row;
using bench::seconds_since;
using spawn_bench::Client;
using spawn_bench::Client_client;
using spawn_bench::PageServer;
using spawn_bench::PageServer_client;

struct Options {
  int clients = 4;
  int commands = 128;
  int servers = 8;
  int spawns = 4;
};

int body(const Options &o, const char *self) {
  // Spawn latency: k single spawns, one batch of k, k raw spawns.
  std::vector<double> single, raw;
  for (int i = 0; i < o.spawns; ++i) {
    auto t0 = clock_type::now();
    poc::reserve("bench", 1);
    single.push_back(seconds_since(t0) * 1e3);
    raw.push_back(bench::raw_spawn_ms(self));
  }
  auto t0 = clock_type::now();
  poc::reserve("bench", o.spawns);
  double batched = seconds_since(t0) * 1e3 / o.spawns;
  row("spawn one host (ms) vs raw MPI_Comm_spawn", median(single), median(raw), "ms");
  row("spawn per host in a batch of " + std::to_string(o.spawns) + " (ms) vs one at a time",
      batched, median(single), "ms");

  // Servers on the hosts spawned above (more if needed), clients on a
  // batch of their own: every client reaches every server by connection.
  if (2 * o.spawns < o.servers)
    poc::reserve("bench", o.servers - 2 * o.spawns);
  std::vector<PageServer *> servers;
  for (int i = 0; i < o.servers; ++i)
    servers.push_back(poc::create<PageServer>("bench", PageServer_client::ctor_0));
  poc::reserve("bench", o.clients);
  std::vector<Client *> clients;
  for (int i = 0; i < o.clients; ++i)
    clients.push_back(poc::create<Client>("bench", Client_client::ctor_0));

  auto phase = [&](int cache) {
    std::vector<poc::future<double>> runs;
    auto start = clock_type::now();
    for (Client *c : clients)
      runs.push_back(Client_client::ReadIntoServerCache_0_future(c, servers, o.commands, cache));
    for (auto &f : runs)
      f.get();
    return seconds_since(start) * 1e6 / (o.clients * o.commands);
  };
  // Cached: measured with the connections open (the run before, uncached,
  // closed them: a warm-up run reopens them). Uncached: every command
  // connects and disconnects, as in the paper's prototype.
  std::vector<double> cached, uncached;
  for (int run = 0; run < 3; ++run) {
    phase(64);
    cached.push_back(phase(64));
    uncached.push_back(phase(0));
  }
  std::uint64_t total = 0;
  for (PageServer *s : servers)
    total += PageServer_client::commands_0(s);
  std::uint64_t expected = 9ull * static_cast<std::uint64_t>(o.clients * o.commands);
  if (total != expected) {
    fmt::print("FAIL: servers executed {} commands, expected {}\n",
               static_cast<unsigned long long>(total), static_cast<unsigned long long>(expected));
    return 1;
  }
  std::string shape = std::to_string(o.clients) + " x " + std::to_string(o.commands) + " over " +
                      std::to_string(o.servers);
  row("ReadIntoServerCache " + shape + ", uncached (us/command) vs cached", median(uncached),
      median(cached), "us");
  fmt::print("cached: {:.1f} us/command, connect per call: {:.1f} us/command (medians of 3)\n",
             median(cached), median(uncached));

  // CPU the spawned server hosts use while nothing happens (their
  // connections to the clients still open), in % of one core.
  double percent = bench::idle_cpu_percent(servers, &PageServer_client::cpu_seconds_0, 2.0);
  fmt::print(
      "RESULT|CPU of {} idle spawned hosts over 2 s (% of one core, total)|{:.3f}|200|%|{:.4f}\n",
      servers.size(), percent, percent / 200.0);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (bench::run_raw_child(argc, argv))
    return 0;
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    int v = std::atoi(argv[i + 1]);
    if (a == "--clients")
      o.clients = v;
    else if (a == "--commands")
      o.commands = v;
    else if (a == "--servers")
      o.servers = v;
    else if (a == "--spawns")
      o.spawns = v;
  }
  return poc::run(argc, argv, [&](int, char **) { return body(o, argv[0]); });
}
