// MPI_Isend through MPI's profiling interface: the program's definition
// takes the place of the library's, and hands every send to PMPI_Isend
// until fail_sends_from_now_on() (failing_sends.hpp).
#include "failing_sends.hpp"

#include <mpi.h>

#include <atomic>

namespace {
std::atomic<bool> g_failing{false};
} // namespace

void fail_sends_from_now_on() { g_failing.store(true); }

extern "C" int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                         MPI_Comm comm, MPI_Request *request) {
  if (g_failing.load() && comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF)
    return MPI_ERR_INTERN;
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}
