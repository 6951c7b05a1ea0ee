//===- tests/persist/mpi_share.cpp - Objects shared by two MPI jobs -------===//
//
// persist_mpi_share STORE write|read
//
// "write": every rank of the job saves its own object "mpi/rank<r>" and rank
// 0 a shared one; while rank 0 holds the shared object's lease, every other
// rank must be refused it (store_error busy). "read", a later job, perhaps
// with another number of ranks: every rank loads every object the writing
// job left and checks its state. Prints PASSED on rank 0 on success.
//
//===----------------------------------------------------------------------===//
#include "poc/persist/error.hpp"
#include "poc/persist/store.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

using namespace poc::persist;

namespace {

constexpr const char *ClassName = "mpitest::Share";

std::vector<std::byte> state_of(int rank) {
  std::string text = "state of rank " + std::to_string(rank);
  std::vector<std::byte> v(text.size());
  std::memcpy(v.data(), text.data(), text.size());
  return v;
}

int write_phase(const Store &store, int rank, int size) {
  int failures = 0;
  store.save(Address::parse("mpi/rank" + std::to_string(rank)), ClassName, 1, state_of(rank));
  auto shared = Address::parse("mpi/shared");
  std::optional<Lease> lease;
  if (rank == 0) {
    lease = store.lease(shared);
    store.save(shared, ClassName, 1, state_of(size)); // the writer's size
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != 0) {
    try {
      store.lease(shared);
      std::fprintf(stderr, "rank %d: got the lease rank 0 holds\n", rank);
      ++failures;
    } catch (const store_error &e) {
      if (e.kind() != store_errc::busy) {
        std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
        ++failures;
      }
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return failures;
}

int read_phase(const Store &store, int rank) {
  int failures = 0;
  try {
    Record shared = store.load(Address::parse("mpi/shared"), ClassName, 1);
    std::string text(reinterpret_cast<const char *>(shared.payload.data()), shared.payload.size());
    int writers = std::stoi(text.substr(text.rfind(' ') + 1));
    for (int r = 0; r < writers; ++r)
      if (store.load(Address::parse("mpi/rank" + std::to_string(r)), ClassName, 1).payload !=
          state_of(r)) {
        std::fprintf(stderr, "rank %d: object mpi/rank%d has the wrong state\n", rank, r);
        ++failures;
      }
    if (store.list("mpi/rank").size() != static_cast<std::size_t>(writers)) {
      std::fprintf(stderr, "rank %d: expected %d rank objects\n", rank, writers);
      ++failures;
    }
    // The writing job has ended, so its lease is gone.
    if (rank == 0 && !store.try_lease(Address::parse("mpi/shared"))) {
      std::fprintf(stderr, "the writing job's lease outlived it\n");
      ++failures;
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    ++failures;
  }
  return failures;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int failures = 0;
  std::string mode = argc == 3 ? argv[2] : "";
  if (mode != "write" && mode != "read") {
    if (rank == 0)
      std::fprintf(stderr, "usage: %s STORE write|read\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  try {
    Store store(argv[1]);
    if (mode == "write") {
      if (rank == 0)
        for (const Address &a : store.list("mpi/"))
          store.remove(a); // a fresh start for this test's objects
      MPI_Barrier(MPI_COMM_WORLD);
      failures = write_phase(store, rank, size);
    } else {
      failures = read_phase(store, rank);
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    failures = 1;
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("%s\n", total == 0 ? "PASSED" : "FAILED");
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
