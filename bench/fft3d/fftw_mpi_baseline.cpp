//===- fftw_mpi_baseline.cpp - FFTW-MPI 3D FFT, the in-core baseline ------===//
///
/// The baseline of the in-core benchmark: the same N1 x N2 x N3 complex
/// forward transform with FFTW's own distributed-memory 3D FFT
/// (fftw_mpi_plan_dft_3d) on the ranks of this job, in-place. By default the
/// output is in natural order, as fft3d produces it; with `transposed` it is
/// left transposed (FFTW_MPI_TRANSPOSED_OUT: one all-to-all instead of two),
/// as a user who cares about speed plans it.
///
/// usage: mpirun -n P fftw_mpi_baseline N1 N2 N3 [repetitions] [estimate|measure]
///            [natural|transposed]
/// prints: "fftw_mpi N1xN2xN3 ranks P: best S sec, median S sec"
///
//===----------------------------------------------------------------------===//

#include <fftw3-mpi.h>
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  fftw_mpi_init();
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc < 4) {
    if (rank == 0)
      fmt::print(stderr, "usage: fftw_mpi_baseline N1 N2 N3 [repetitions] [estimate|measure] "
                         "[natural|transposed]\n");
    MPI_Finalize();
    return 2;
  }
  ptrdiff_t n[3];
  for (int d = 0; d < 3; ++d) {
    n[d] = std::atol(argv[d + 1]);
    if (n[d] <= 0) {
      if (rank == 0)
        fmt::print(stderr, "fftw_mpi_baseline: sizes must be positive\n");
      MPI_Finalize();
      return 2;
    }
  }
  int repetitions = argc > 4 ? std::max(1, std::atoi(argv[4])) : 3;
  unsigned flags = (argc > 5 && std::string(argv[5]) == "measure") ? FFTW_MEASURE : FFTW_ESTIMATE;
  if (argc > 6 && std::string(argv[6]) == "transposed")
    flags |= FFTW_MPI_TRANSPOSED_OUT;

  ptrdiff_t localN0 = 0, local0 = 0, localN1 = 0, local1 = 0;
  // Room for the input slab and, transposed, the output slab.
  ptrdiff_t alloc = fftw_mpi_local_size_3d_transposed(n[0], n[1], n[2], MPI_COMM_WORLD, &localN0,
                                                      &local0, &localN1, &local1);
  fftw_complex *data = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  fftw_plan plan =
      fftw_mpi_plan_dft_3d(n[0], n[1], n[2], data, data, MPI_COMM_WORLD, FFTW_FORWARD, flags);
  std::vector<double> times;
  for (int r = 0; r < repetitions; ++r) {
    for (ptrdiff_t i = 0; i < localN0 * n[1] * n[2]; ++i) {
      data[i][0] = static_cast<double>((local0 * n[1] * n[2] + i) % 7) - 3.0;
      data[i][1] = 0.5;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    fftw_execute(plan);
    MPI_Barrier(MPI_COMM_WORLD);
    times.push_back(MPI_Wtime() - t0);
  }
  std::sort(times.begin(), times.end());
  if (rank == 0)
    fmt::print("fftw_mpi {}x{}x{} ranks {}: best {:.6g} sec, median {:.6g} sec\n",
               static_cast<long>(n[0]), static_cast<long>(n[1]), static_cast<long>(n[2]), ranks,
               times.front(), times[times.size() / 2]);
  fftw_destroy_plan(plan);
  fftw_free(data);
  fftw_mpi_cleanup();
  MPI_Finalize();
  return 0;
}
