#include "arena.hpp"
#include "demangle.hpp"
#include "engine.hpp"
#include "host.hpp"
#include "placement.hpp"

#include <poc/run.hpp>

#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <exception>
#include <typeinfo>

namespace poc {
namespace {

std::atomic<bool> g_running{false};
int g_rank = 0;
int g_size = 1;

/// Runs the body and reports what escapes it; returns its exit status.
int run_body(const std::function<int(int, char **)> &body, int argc, char **argv) {
  try {
    return body(argc, argv);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "poc: the program ended with an uncaught %s: %s\n",
                 detail::demangle(typeid(e).name()).c_str(), e.what());
  } catch (...) {
    std::fprintf(stderr, "poc: the program ended with an uncaught exception\n");
  }
  return 1;
}

} // namespace

bool running() noexcept { return g_running.load(); }
int host_rank() { return g_rank; }
int host_count() { return g_size; }

int run(int argc, char **argv, std::function<int(int, char **)> body) {
  int provided = 0;
  int already = 0;
  MPI_Initialized(&already);
  if (already) {
    MPI_Query_thread(&provided);
  } else if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
    std::fprintf(stderr, "poc: MPI_Init_thread failed\n");
    return 1;
  }
  if (provided < MPI_THREAD_MULTIPLE) {
    std::fprintf(stderr, "poc: this MPI library does not provide MPI_THREAD_MULTIPLE, which "
                         "the poc++ runtime needs\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int result = 0;
  try {
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    detail::init_placement(g_rank, g_size);
    detail::install_arena_fault_handler();
    detail::Engine engine;
    {
      detail::Host host(engine);
      detail::set_host(&host);
      g_running = true;
      if (g_rank == 0) {
        result = run_body(body, argc, argv);
        host.end_job();
      } else {
        host.serve_until_finished();
      }
      host.join_all();
      g_running = false;
      engine.flush(std::chrono::milliseconds(2000));
      detail::set_host(nullptr);
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "poc: rank %d: runtime failure: %s\n", g_rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (!already)
    MPI_Finalize();
  return result;
}

int run(int argc, char **argv, int (*body)()) {
  return run(argc, argv, [body](int, char **) { return body(); });
}

} // namespace poc
