//===- mpi_matmul.cpp - The baseline: a hand-written MPI blocked matmul --===//
///
/// mpirun -n P mpi-matmul [--size N] [--block B]: C = A B for the matrices
/// dataflow-matmul multiplies, as an MPI programmer writes it with the same
/// kernel (matmul_kernel.hpp). Every rank makes B's column panels; rank r
/// computes the blocks of C in row panels r, r + P, r + 2P, ...; then rank 0
/// receives the other ranks' blocks and adds up C block by block in the
/// same order as dataflow-matmul, so it prints the same line: "matmul NxN:
/// sum S trace T".
///
//===----------------------------------------------------------------------===//
#include "matmul_kernel.hpp"

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
  matmul::Problem p{1024, 256};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
      p.size = std::stol(argv[++i]);
    } else if (std::strcmp(argv[i], "--block") == 0 && i + 1 < argc) {
      p.block = std::stol(argv[++i]);
    } else {
      if (rank == 0)
        std::fprintf(stderr, "usage: mpi-matmul [--size N] [--block B]\n");
      MPI_Finalize();
      return 2;
    }
  }
  std::vector<matmul::Panel> b;
  for (long j = 0; j < p.panels(); ++j)
    b.push_back(matmul::b_panel(p, j));
  // This rank's blocks of C, row panel by row panel.
  std::vector<matmul::Panel> mine;
  for (long i = rank; i < p.panels(); i += ranks) {
    const matmul::Panel a = matmul::a_panel(p, i);
    for (long j = 0; j < p.panels(); ++j)
      mine.push_back(matmul::multiply(a, b[j], p.size));
  }
  if (rank != 0) {
    for (const matmul::Panel &c : mine)
      MPI_Send(c.data(), static_cast<int>(c.size()), MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
  } else {
    double sum = 0, trace = 0;
    std::size_t next = 0;
    for (long i = 0; i < p.panels(); ++i)
      for (long j = 0; j < p.panels(); ++j) {
        const int owner = static_cast<int>(i % ranks);
        matmul::Panel c(owner == 0 ? 0 : p.extent(i) * p.extent(j));
        if (owner == 0)
          c = std::move(mine[next++]);
        else
          MPI_Recv(c.data(), static_cast<int>(c.size()), MPI_DOUBLE, owner, 0, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
        matmul::account(p, i, j, c, sum, trace);
      }
    std::printf("matmul %ldx%ld: sum %.10e trace %.10e\n", p.size, p.size, sum, trace);
  }
  MPI_Finalize();
  return 0;
}
