// What a same-node message costs through the shared-memory ring
// (runtime/src/transport/shm_ring.hpp) against Open MPI's own path, in the
// same job: a 4-byte ping-pong between ranks 0 and 1 through one ring each
// way in an MPI-3 shared-memory window, its runs alternating with a plain
// MPI_Send/MPI_Recv ping-pong (MPI_Init: the thread level of the issue's
// baseline). This is the floor a runtime message over the ring would stand
// on; the runtime's own steps come on top (bench/runtime/profile_call.sh).
//   mpirun -n 2 shm-ring-pingpong
#include "../common/bench_report.hpp"
#include "transport/shm_ring.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <span>
#include <vector>

namespace {

using poc::detail::ShmRing;
constexpr std::size_t kCapacity = 64 * 1024;
constexpr int kIters = 200000;
constexpr int kRuns = 7;

double mpi_round_trip(int rank) {
  int v = 0;
  const int peer = 1 - rank;
  MPI_Barrier(MPI_COMM_WORLD);
  auto t0 = bench::clock_type::now();
  for (int i = 0; i < kIters; ++i) {
    if (rank == 0) {
      MPI_Send(&v, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
      MPI_Recv(&v, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&v, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&v, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
    }
  }
  return bench::seconds_since(t0) / kIters * 1e6;
}

double ring_round_trip(int rank, ShmRing &in, ShmRing &out) {
  std::int32_t v = 0;
  auto bounce = [&] {
    while (!in.try_pop([&](std::span<const std::byte> m) { std::memcpy(&v, m.data(), sizeof v); }))
      ;
    while (!out.try_push(std::as_bytes(std::span(&v, 1))))
      ;
  };
  MPI_Barrier(MPI_COMM_WORLD);
  auto t0 = bench::clock_type::now();
  for (int i = 0; i < kIters; ++i) {
    if (rank == 0) {
      while (!out.try_push(std::as_bytes(std::span(&v, 1))))
        ;
      while (
          !in.try_pop([&](std::span<const std::byte> m) { std::memcpy(&v, m.data(), sizeof v); }))
        ;
    } else {
      bounce();
    }
  }
  return bench::seconds_since(t0) / kIters * 1e6;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  if (size != 2 || node_size != 2) {
    if (rank == 0)
      std::fprintf(stderr, "shm-ring-pingpong needs 2 ranks on one node\n");
    MPI_Finalize();
    return 1;
  }
  // Each rank's window holds the ring it reads from.
  void *mine = nullptr;
  MPI_Win win;
  MPI_Win_allocate_shared(static_cast<MPI_Aint>(ShmRing::footprint(kCapacity)), 64, MPI_INFO_NULL,
                          node, &mine, &win);
  ShmRing::format(mine);
  MPI_Barrier(node);
  MPI_Aint bytes = 0;
  int unit = 0;
  void *theirs = nullptr;
  MPI_Win_shared_query(win, 1 - rank, &bytes, &unit, &theirs);
  ShmRing in(mine, kCapacity), out(theirs, kCapacity);
  std::vector<double> ring, raw;
  for (int run = 0; run < kRuns; ++run) {
    raw.push_back(mpi_round_trip(rank));
    ring.push_back(ring_round_trip(rank, in, out));
  }
  if (rank == 0)
    bench::row("4-byte round trip, shared-memory ring vs MPI_Send/MPI_Recv (us)",
               bench::median(ring), bench::median(raw), "us");
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return 0;
}
