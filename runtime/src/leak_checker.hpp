// A program compiled with -fsanitize=address (or =leak) reports its own
// leaks only, and keeps its output.
#ifndef POC_RUNTIME_LEAK_CHECKER_HPP
#define POC_RUNTIME_LEAK_CHECKER_HPP

namespace poc::detail {

/// Allocations made on this thread while an object of this class lives
/// (MPI_Init) are Open MPI's, some never freed: if LeakSanitizer is in the
/// program, it leaves them out. (Open MPI is built without frame pointers,
/// so a suppression by library name cannot match all of them.)
class MpiInitAllocations {
public:
  MpiInitAllocations();
  ~MpiInitAllocations();
  MpiInitAllocations(const MpiInitAllocations &) = delete;
  MpiInitAllocations &operator=(const MpiInitAllocations &) = delete;
};

/// Once the job has ended, before MPI_Finalize: flushes the standard
/// streams and, if LeakSanitizer is in the program, runs its leak check
/// now instead of at exit. Open MPI frees much of what it holds only in
/// MPI_Finalize or never, and unloads its plugins there, so at exit its
/// allocations would be reported as the program's, from "<unknown
/// module>"; while MPI lives they are still reachable. A leak report ends
/// the process without flushing the streams, so output through a pipe
/// would be lost without the flush.
void check_leaks_before_mpi_ends();

} // namespace poc::detail

#endif
