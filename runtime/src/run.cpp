#include "leak_checker.hpp"
#include "memory_reuse.hpp"
#include "persistent/activation.hpp"
#include "process/affinity.hpp"
#include "process/arena.hpp"
#include "process/host.hpp"
#include "process/placement.hpp"
#include "trace/recorder.hpp"
#include "trace/trace_file.hpp"
#include "transport/call_probes.hpp"
#include "transport/engine.hpp"
#include "transport/singleton_start.hpp"
#include "transport/spawn.hpp"
#include <fmt/format.h>
#include <poc/serialize/type_name.hpp>

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
    fmt::print(stderr, "poc: the program ended with an uncaught {}: {}\n",
               detail::type_name(typeid(e)), e.what());
  } catch (...) {
    fmt::print(stderr, "poc: the program ended with an uncaught exception\n");
  }
  return 1;
}

} // namespace

bool running() noexcept { return g_running.load(); }
int host_rank() { return g_rank; }
int host_count() { return g_size; }

int usable_cpus() noexcept { return detail::usable_cpus(); }

void use_usable_cpus() noexcept { detail::widen_binding(); }

int run(int argc, char **argv, std::function<int(int, char **)> body) {
  detail::keep_freed_memory();
  int provided = 0;
  int already = 0;
  MPI_Initialized(&already);
  if (already) {
    MPI_Query_thread(&provided);
  } else {
    detail::choose_singleton_transport();
    if (detail::MpiInitAllocations mpi_init;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
      fmt::print(stderr, "poc: MPI_Init_thread failed\n");
      return 1;
    }
  }
  if (provided < MPI_THREAD_MULTIPLE) {
    fmt::print(stderr, "poc: this MPI library does not provide MPI_THREAD_MULTIPLE, which "
                       "the poc++ runtime needs\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int result = 0;
  // Before the host's threads start: they inherit the main thread's CPUs.
  detail::note_start_binding();
  detail::remember_arguments(argc, argv);
  // Failed spawns and connections are reported as exceptions, not aborts.
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm parent = MPI_COMM_NULL;
  MPI_Comm_get_parent(&parent);
  try {
    // A host spawned by a rank of the job (docs/runtime.md section 11)
    // serves processes like any rank but never runs the body.
    detail::Hello hello;
    std::shared_ptr<detail::Link> parent_link;
    if (parent != MPI_COMM_NULL)
      parent_link = detail::join_parent(parent, hello);
    int world_rank = 0, world_size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    const int base = parent_link ? hello.base : 0;
    g_rank = base + world_rank;
    g_size = parent_link ? hello.job_hosts : world_size;
    detail::init_placement(world_rank, world_size, base);
    detail::trace::start_tracing(world_rank, base);
    detail::trace::name_thread(g_rank == 0 ? "main" : "main (serving)", false);
    detail::install_arena_fault_handler();
    detail::Engine engine(base, parent_link ? hello.parent : -1);
    if (parent_link)
      engine.links().add(parent_link);
    {
      detail::Connections connections(engine);
      if (parent_link)
        connections.set_limit(static_cast<std::size_t>(hello.cache_limit));
      detail::PersistentProcesses persistence;
      // Running from before the host serves its first request: a request
      // served at once may start a call on a local object, which runs at
      // once only when the runtime is not running.
      g_running = true;
      detail::Host host(engine, connections, g_size, &persistence);
      if (g_rank == 0) {
        {
          detail::BusyThread main_program;
          result = run_body(body, argc, argv);
        }
        detail::finish_main_tasks();
        host.end_job();
      } else {
        host.serve_until_finished();
      }
      host.join_all();
      POC_PROBES_WRITE(engine.rank());
      detail::trace::finish_tracing(world_rank, world_size, base);
      if (g_rank == 0)
        detail::report_main_errors();
      // An error of a started call nobody waited for fails the program.
      if (detail::unwaited_errors_reported() && result == 0)
        result = 1;
      g_running = false;
      engine.flush(std::chrono::milliseconds(2000));
      connections.stop();
      detail::disconnect_links(engine);
    }
  } catch (const std::exception &e) {
    fmt::print(stderr, "poc: host {}: runtime failure: {}\n", g_rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  detail::check_leaks_before_mpi_ends();
  if (!already)
    MPI_Finalize();
  return result;
}

int run(int argc, char **argv, int (*body)()) {
  return run(argc, argv, [body](int, char **) { return body(); });
}

} // namespace poc
