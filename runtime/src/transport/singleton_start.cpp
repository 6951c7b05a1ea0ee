#include "singleton_start.hpp"

#include <mpi.h>

#include <cstdlib>

namespace poc::detail {
namespace {

bool set(const char *name) noexcept {
  const char *value = std::getenv(name);
  return value && *value;
}

} // namespace

void choose_singleton_transport() noexcept {
#ifdef OPEN_MPI
  for (const char *launched : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (set(launched))
      return;
  for (const char *chosen : {"POC_MACHINES", "POC_MACHINEFILE", "OMPI_MCA_pml"})
    if (set(chosen))
      return;
  setenv("OMPI_MCA_pml", "ob1", 0);
#endif
}

} // namespace poc::detail
