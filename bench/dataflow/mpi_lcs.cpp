//===- mpi_lcs.cpp - The baseline: a hand-written MPI wavefront LCS ------===//
///
/// mpirun -n P mpi-lcs [--block N] A B: the LCS length of files A and B as
/// an MPI programmer writes it. Rank r owns a strip of B's columns and
/// walks down A in blocks of N rows; for each block it waits for the left
/// neighbour's last column (and corner), fills its strip with
/// lcs::fill_block, and sends its own last column on. The last rank has
/// the answer. Prints "lcs length: N" and "time: S s" (the fill alone).
///
//===----------------------------------------------------------------------===//
#include "lcs_kernel.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::size_t block = 1024;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--block") == 0 && i + 1 < argc)
      block = std::stoul(argv[++i]);
    else
      files.push_back(argv[i]);
  if (files.size() != 2) {
    if (rank == 0)
      std::fprintf(stderr, "usage: mpi-lcs [--block N] A B\n");
    MPI_Finalize();
    return 2;
  }
  const std::string a = lcs::read_sequence(files[0]), b = lcs::read_sequence(files[1]);
  const std::size_t c0 = b.size() * rank / ranks, c1 = b.size() * (rank + 1) / ranks;
  std::vector<lcs::Cell> row(c1 - c0 + 1, 0), left(block), right(block);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  lcs::Cell corner = 0;
  for (std::size_t r0 = 0; r0 < a.size(); r0 += block) {
    const std::size_t h = std::min(block, a.size() - r0);
    // left[h] carries the corner for the next block.
    left.resize(h + 1);
    if (rank > 0)
      MPI_Recv(left.data(), static_cast<int>(h + 1), MPI_INT32_T, rank - 1, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    else
      std::fill(left.begin(), left.end(), 0);
    row[0] = corner;
    corner = left[h];
    right.resize(h + 1);
    lcs::fill_block(a.data() + r0, h, b.data() + c0, c1 - c0, row.data(), left.data(),
                    right.data());
    right[h] = row.back();
    if (rank + 1 < ranks)
      MPI_Send(right.data(), static_cast<int>(h + 1), MPI_INT32_T, rank + 1, 0, MPI_COMM_WORLD);
  }
  const double seconds = MPI_Wtime() - start;
  lcs::Cell length = row.back();
  if (ranks > 1 && rank == ranks - 1)
    MPI_Send(&length, 1, MPI_INT32_T, 0, 1, MPI_COMM_WORLD);
  if (ranks > 1 && rank == 0)
    MPI_Recv(&length, 1, MPI_INT32_T, ranks - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank == 0)
    std::printf("lcs length: %d\ntime: %.3f s\n", length, seconds);
  MPI_Finalize();
  return 0;
}
