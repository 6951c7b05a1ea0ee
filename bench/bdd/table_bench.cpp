// find-or-put latency and one-sided round trips per call against the chunk
// size C and the load factor (the thesis's Fig. 3.14 and 3.17), on the
// NodeTable of apps/bdd. Run under mpirun: rank 0 measures while the table
// is spread over every rank, so with K ranks (K-1)/K of the probes are
// remote. Usage: table-bench [--access rma|shared] [--mib N]
#include "bdd/node_table.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

/// A node no BDD would contain but the table stores like any other: the
/// i-th of a run, distinct for distinct i.
bdd::Node synthetic(std::uint64_t i) {
  return bdd::Node::make(static_cast<bdd::Level>(i % 1000), (i * 2 + 2) & bdd::kIndexMask,
                         (i * 2 + 3) & bdd::kIndexMask);
}

} // namespace

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  bdd::Access access = bdd::Access::Rma;
  std::size_t mib = 16;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--access"))
      access = bdd::parse_access(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--mib"))
      mib = std::stoul(argv[i + 1]);
  }
  if (rank == 0)
    fmt::print("{:<5} {:<5} {:>12} {:>12} {:>14} {:>14}\n", "C", "load", "find us", "insert us",
               "find trips", "insert trips");
  for (unsigned chunk : {1u, 2u, 4u, 8u, 16u, 32u}) {
    bdd::NodeTable table(MPI_COMM_WORLD, mib << 20, chunk, access);
    const std::uint64_t capacity = table.capacity();
    std::uint64_t filled = 0;
    for (double load : {0.1, 0.3, 0.5, 0.7, 0.9}) {
      if (filled >= static_cast<std::uint64_t>(load * capacity))
        continue;
      double insert_us = 0, find_us = 0, insert_trips = 0, find_trips = 0;
      if (rank == 0)
        try {
          // Insert up to the load factor, timing the last 10,000 inserts.
          const std::uint64_t target = static_cast<std::uint64_t>(load * capacity);
          const std::uint64_t timed = std::min<std::uint64_t>(10000, target - filled);
          while (filled < target - timed)
            table.find_or_put(synthetic(filled++));
          auto trips0 = table.memory().counters().round_trips;
          auto t0 = std::chrono::steady_clock::now();
          for (std::uint64_t i = 0; i < timed; ++i)
            table.find_or_put(synthetic(filled++));
          auto t1 = std::chrono::steady_clock::now();
          insert_us = std::chrono::duration<double, std::micro>(t1 - t0).count() / timed;
          insert_trips = double(table.memory().counters().round_trips - trips0) / timed;
          // Look up 10,000 random nodes that are there.
          std::mt19937_64 random(chunk * 100 + static_cast<unsigned>(load * 10));
          trips0 = table.memory().counters().round_trips;
          t0 = std::chrono::steady_clock::now();
          for (int i = 0; i < 10000; ++i)
            table.find_or_put(synthetic(random() % filled));
          t1 = std::chrono::steady_clock::now();
          find_us = std::chrono::duration<double, std::micro>(t1 - t0).count() / 10000;
          find_trips = double(table.memory().counters().round_trips - trips0) / 10000;
          fmt::print("{:<5} {:<5.1f} {:12.3f} {:12.3f} {:14.2f} {:14.2f}\n", chunk, load, find_us,
                     insert_us, find_trips, insert_trips);
          std::fflush(stdout);
        } catch (const bdd::TableFull &) {
          fmt::print("{:<5} {:<5.1f} {:>12} (no free bucket within 256 chunks)\n", chunk, load,
                     "full");
          filled = capacity; // skip the higher loads of this chunk size
        }
      MPI_Barrier(MPI_COMM_WORLD); // the other ranks serve their windows meanwhile
    }
  }
  MPI_Finalize();
  return 0;
}
