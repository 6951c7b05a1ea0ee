// A host keeps Open MPI's binding of its rank to one core while it runs one
// piece of user code at a time, and widens it to every usable CPU once two
// run at once (docs/runtime.md section 7, "CPU binding"): its processes
// must not then share one core.
#include <poc/poc.hpp>

#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

class Probe {
public:
  /// The CPUs this process's thread may run on.
  int cpus() const {
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    return CPU_COUNT(&set);
  }

  /// The CPUs of this host's threads, as poc::usable_cpus() gives them.
  int usable() const { return poc::usable_cpus(); }

  /// Waits until `count` probes of this host run this method at once, then
  /// gives cpus(); -1 if they never do.
  int cpus_while_crowded(int count) {
    static std::atomic<int> arrived{0};
    arrived.fetch_add(1);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (arrived.load() < count) {
      if (std::chrono::steady_clock::now() > give_up)
        return -1;
      std::this_thread::yield();
    }
    return cpus();
  }
};

int main(int argc, char **argv) {
  // mpirun bound every rank to one core (the test says so), and the last
  // rank runs nothing but the probes.
  const bool bound = argc > 1 && std::strcmp(argv[1], "--bound-to-a-core") == 0;
  const poc::machine last = poc::rank_machine(poc::host_count() - 1);
  Probe *lone = new (last) Probe;
  const int usable = lone->usable();
  const int lone_cpus = lone->cpus();
  const bool kept = !bound || poc::host_count() == 1 || lone_cpus == 1;
  if (lone_cpus >= 1 && lone_cpus <= usable && kept)
    std::printf("one process: within the usable CPUs\n");
  else
    std::printf("one process: FAILED, %d CPUs of %d usable\n", lone_cpus, usable);

  Probe *a = new (last) Probe;
  Probe *b = new (last) Probe;
  auto on_a = start a->cpus_while_crowded(2);
  auto on_b = start b->cpus_while_crowded(2);
  const int a_cpus = on_a.get(), b_cpus = on_b.get();
  if (a_cpus == usable && b_cpus == usable)
    std::printf("two processes at once: every usable CPU\n");
  else
    std::printf("two processes at once: FAILED, %d and %d CPUs of %d usable\n", a_cpus, b_cpus,
                usable);
  delete a;
  delete b;
  delete lone;
  return 0;
}
