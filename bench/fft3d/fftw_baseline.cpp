//===- fftw_baseline.cpp - FFTW's 3D FFT, the in-core baselines -----------===//
///
/// The baselines of the in-core benchmark: the same N1 x N2 x N3 complex
/// forward transform, in place, as a user would run it with FFTW instead of
/// fft3d:
///  * `natural` / `transposed`: FFTW-MPI's distributed 3D FFT
///    (fftw_mpi_plan_dft_3d) on the ranks of this job, each rank with T
///    threads (default 1). `natural` leaves the output in natural order, as
///    fft3d produces it; `transposed` leaves it transposed
///    (FFTW_MPI_TRANSPOSED_OUT: one all-to-all instead of two), as a user who
///    cares about speed plans it.
///  * `threads`: FFTW's in-core 3D FFT (fftw_plan_dft_3d) in one process
///    with T threads (default: every core), the choice on one node.
///
/// usage: mpirun -n P fftw_baseline N1 N2 N3 [repetitions] [estimate|measure]
///            [natural|transposed|threads] [T]
/// prints: "fftw_mpi N1xN2xN3 ranks P threads T: best S sec, median S sec"
///     or: "fftw_threads N1xN2xN3 threads T: best S sec, median S sec"
///
//===----------------------------------------------------------------------===//

#include <fftw3-mpi.h>
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

int fail(int rank, const std::string &message) {
  if (rank == 0)
    fmt::print(stderr, "fftw_baseline: {}\n", message);
  MPI_Finalize();
  return 2;
}

/// Fills \p count points of the input, the first at global index \p first.
void fillInput(fftw_complex *data, ptrdiff_t first, ptrdiff_t count) {
  for (ptrdiff_t i = 0; i < count; ++i) {
    data[i][0] = static_cast<double>((first + i) % 7) - 3.0;
    data[i][1] = 0.5;
  }
}

} // namespace

int main(int argc, char **argv) {
  // FFTW's threads never call MPI: only the main thread does.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  fftw_init_threads();
  fftw_mpi_init();
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc < 4)
    return fail(rank, "usage: fftw_baseline N1 N2 N3 [repetitions] [estimate|measure] "
                      "[natural|transposed|threads] [T]");
  ptrdiff_t n[3];
  for (int d = 0; d < 3; ++d) {
    n[d] = std::atol(argv[d + 1]);
    if (n[d] <= 0)
      return fail(rank,
                  fmt::format("size {} must be a positive integer, got '{}'", d + 1, argv[d + 1]));
  }
  int repetitions = argc > 4 ? std::max(1, std::atoi(argv[4])) : 3;
  unsigned flags = (argc > 5 && std::string(argv[5]) == "measure") ? FFTW_MEASURE : FFTW_ESTIMATE;
  std::string layout = argc > 6 ? argv[6] : "natural";
  if (layout != "natural" && layout != "transposed" && layout != "threads")
    return fail(rank, "the layout must be natural, transposed or threads, got '" + layout + "'");
  bool local = layout == "threads";
  if (local && ranks != 1)
    return fail(rank, "the threads baseline runs in one process, got " + std::to_string(ranks) +
                          " ranks");
  int threads = argc > 7 ? std::atoi(argv[7])
                         : (local ? static_cast<int>(std::thread::hardware_concurrency()) : 1);
  if (threads < 1)
    return fail(rank, std::string("the thread count must be positive, got '") +
                          (argc > 7 ? argv[7] : "") + "'");
  fftw_plan_with_nthreads(threads);
  if (layout == "transposed")
    flags |= FFTW_MPI_TRANSPOSED_OUT;

  // This rank's slab of the input (all of it when local) and its room,
  // which for FFTW-MPI also holds the transposed output slab.
  ptrdiff_t localN0 = n[0], local0 = 0, alloc = n[0] * n[1] * n[2];
  if (!local) {
    ptrdiff_t localN1 = 0, local1 = 0;
    alloc = fftw_mpi_local_size_3d_transposed(n[0], n[1], n[2], MPI_COMM_WORLD, &localN0, &local0,
                                              &localN1, &local1);
  }
  fftw_complex *data = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  fftw_plan plan = local ? fftw_plan_dft_3d(static_cast<int>(n[0]), static_cast<int>(n[1]),
                                            static_cast<int>(n[2]), data, data, FFTW_FORWARD, flags)
                         : fftw_mpi_plan_dft_3d(n[0], n[1], n[2], data, data, MPI_COMM_WORLD,
                                                FFTW_FORWARD, flags);
  if (plan == nullptr)
    return fail(rank, "FFTW could not plan the transform");
  std::vector<double> times;
  for (int r = 0; r < repetitions; ++r) {
    fillInput(data, local0 * n[1] * n[2], localN0 * n[1] * n[2]);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    fftw_execute(plan);
    MPI_Barrier(MPI_COMM_WORLD);
    times.push_back(MPI_Wtime() - t0);
  }
  std::sort(times.begin(), times.end());
  std::string what = local ? "fftw_threads" : "fftw_mpi";
  std::string where = local ? "" : fmt::format(" ranks {}", ranks);
  if (rank == 0)
    fmt::print("{} {}x{}x{}{} threads {}: best {:.6g} sec, median {:.6g} sec\n", what,
               static_cast<long>(n[0]), static_cast<long>(n[1]), static_cast<long>(n[2]), where,
               threads, times.front(), times[times.size() / 2]);
  fftw_destroy_plan(plan);
  fftw_free(data);
  fftw_mpi_cleanup();
  fftw_cleanup_threads();
  MPI_Finalize();
  return 0;
}
