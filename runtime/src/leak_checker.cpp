#include "leak_checker.hpp"

#include <cstdio>
#include <iostream>

// Present only in programs built with LeakSanitizer (alone or in ASan).
extern "C" void __lsan_do_leak_check() __attribute__((weak));
extern "C" void __lsan_disable() __attribute__((weak));
extern "C" void __lsan_enable() __attribute__((weak));

/// LeakSanitizer's suppressions, read when it starts: what Open MPI, its
/// plugins (mca_*) and the libraries under it allocate on their own
/// threads and free only in MPI_Finalize or never. Named by library, which
/// the check can do while MPI lives. A leak in the program's own code is
/// still reported.
extern "C" const char *__lsan_default_suppressions() {
  return "leak:libmpi.so\n"
         "leak:libopen-pal.so\n"
         "leak:libopen-rte.so\n"
         "leak:libpmix.so\n"
         "leak:libhwloc.so\n"
         "leak:libevent\n"
         "leak:mca_\n";
}

/// LeakSanitizer's options, read before LSAN_OPTIONS: no table of the
/// suppressions used, which Open MPI's allocations print on every rank of
/// an mpirun job that leaked nothing. A leak is still reported in full;
/// LSAN_OPTIONS=print_suppressions=1 shows the table again.
extern "C" const char *__lsan_default_options() { return "print_suppressions=0"; }

namespace poc::detail {

MpiInitAllocations::MpiInitAllocations() {
  if (__lsan_disable != nullptr)
    __lsan_disable();
}

MpiInitAllocations::~MpiInitAllocations() {
  if (__lsan_enable != nullptr)
    __lsan_enable();
}

void check_leaks_before_mpi_ends() {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  if (__lsan_do_leak_check != nullptr)
    __lsan_do_leak_check();
}

} // namespace poc::detail
