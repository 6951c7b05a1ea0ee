#include "affinity.hpp"

#include <sched.h>
#include <unistd.h>

#include <cstdlib>

namespace poc::detail {

void widen_single_cpu_binding() noexcept {
  if (std::getenv("POC_KEEP_BINDING"))
    return;
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0 || CPU_COUNT(&mine) != 1)
    return;
  long cpus = sysconf(_SC_NPROCESSORS_CONF);
  cpu_set_t all;
  CPU_ZERO(&all);
  for (long c = 0; c < cpus && c < CPU_SETSIZE; ++c)
    CPU_SET(static_cast<int>(c), &all);
  // On failure (no CPU of the mask allowed) the binding simply stays.
  sched_setaffinity(0, sizeof all, &all);
}

} // namespace poc::detail
