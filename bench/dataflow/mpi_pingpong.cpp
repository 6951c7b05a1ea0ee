//===- mpi_pingpong.cpp - The baseline: raw MPI between two ranks --------===//
///
/// mpirun -n 2 mpi-pingpong BYTES...: MPI_Send/MPI_Recv ping-pong as a user
/// writes it (MPI_Init, no threads), 1000 round trips per size after 100 of
/// warm-up; prints half the round trip in microseconds (one hop).
///
//===----------------------------------------------------------------------===//
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int a = 1; a < argc; ++a) {
    const int bytes = std::atoi(argv[a]);
    std::vector<char> buffer(bytes > 0 ? bytes : 1);
    const int rounds = bytes >= (1 << 20) ? 200 : 1000;
    double start = 0;
    for (int i = -100; i < rounds; ++i) {
      if (i == 0)
        start = MPI_Wtime();
      if (rank == 0) {
        MPI_Send(buffer.data(), bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buffer.data(), bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buffer.data(), bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buffer.data(), bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      }
    }
    if (rank == 0)
      std::printf("operand %8d bytes: %9.2f us per hop (raw MPI, half a round trip)\n", bytes,
                  (MPI_Wtime() - start) / rounds / 2 * 1e6);
  }
  MPI_Finalize();
}
