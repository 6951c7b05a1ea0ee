// A host's processes may use more than one CPU: under mpirun, Open MPI binds
// each rank to one core by default (when the job has no more ranks than
// cores), and the runtime widens that binding, or every process of a rank
// would share one core.
#include <poc/poc.hpp>

#include <sched.h>
#include <unistd.h>

#include <cstdio>

class Probe {
public:
  /// The CPUs this process's thread may run on.
  int cpus() const {
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    return CPU_COUNT(&set);
  }
};

int main() {
  Probe *probe = new ("anywhere") Probe;
  int cpus = probe->cpus();
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (online == 1 || cpus > 1)
    std::printf("process threads: several CPUs\n");
  else
    std::printf("process threads: FAILED, bound to 1 of %ld CPUs\n", online);
  delete probe;
  return 0;
}
