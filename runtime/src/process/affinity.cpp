#include "affinity.hpp"

#include <dirent.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>

namespace poc::detail {
namespace {

/// Every CPU the host may use, as the kernel grants them.
cpu_set_t g_usable;
/// 0 until note_start_binding has run.
int g_usable_count = 0;
/// Whether the binding is still one CPU and may be widened.
std::atomic<bool> g_widen_pending{false};
/// Threads running user code now (BusyThread).
std::atomic<int> g_busy{0};

/// Applies `set` to every thread of this process. A thread that starts
/// during a pass inherits its creator's mask, which may be the old one if
/// the creator is listed after the thread was cloned: a second pass
/// catches it.
void bind_every_thread(const cpu_set_t &set) noexcept {
  for (int pass = 0; pass < 2; ++pass) {
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) {
      sched_setaffinity(0, sizeof set, &set);
      return;
    }
    while (const dirent *entry = readdir(tasks)) {
      const pid_t tid = static_cast<pid_t>(std::atol(entry->d_name));
      if (tid > 0)
        sched_setaffinity(tid, sizeof set, &set);
    }
    closedir(tasks);
  }
}

} // namespace

void note_start_binding() noexcept {
  cpu_set_t start;
  CPU_ZERO(&start);
  if (sched_getaffinity(0, sizeof start, &start) != 0)
    return;
  g_usable = start;
  g_usable_count = CPU_COUNT(&start);
  if (g_usable_count != 1 || std::getenv("POC_KEEP_BINDING"))
    return;
  // Which CPUs the kernel grants (a cpuset may allow fewer than the
  // machine has) is known only by asking for all of them: allow them for a
  // moment, read back what was granted, and bind again.
  cpu_set_t all;
  CPU_ZERO(&all);
  const long cpus = sysconf(_SC_NPROCESSORS_CONF);
  for (long c = 0; c < cpus && c < CPU_SETSIZE; ++c)
    CPU_SET(static_cast<int>(c), &all);
  cpu_set_t granted;
  CPU_ZERO(&granted);
  if (sched_setaffinity(0, sizeof all, &all) != 0 ||
      sched_getaffinity(0, sizeof granted, &granted) != 0) {
    sched_setaffinity(0, sizeof start, &start);
    return;
  }
  sched_setaffinity(0, sizeof start, &start);
  if (CPU_COUNT(&granted) <= 1)
    return;
  g_usable = granted;
  g_usable_count = CPU_COUNT(&granted);
  g_widen_pending.store(true, std::memory_order_release);
}

int usable_cpus() noexcept {
  if (g_usable_count > 0)
    return g_usable_count;
  // Outside poc::run (a test of code that never starts the runtime).
  cpu_set_t mine;
  CPU_ZERO(&mine);
  return sched_getaffinity(0, sizeof mine, &mine) == 0 ? CPU_COUNT(&mine) : 1;
}

void widen_binding() noexcept {
  if (!g_widen_pending.load(std::memory_order_acquire) ||
      !g_widen_pending.exchange(false, std::memory_order_acq_rel))
    return;
  bind_every_thread(g_usable);
}

BusyThread::BusyThread() noexcept {
  if (g_busy.fetch_add(1, std::memory_order_relaxed) >= 1)
    widen_binding();
}

BusyThread::~BusyThread() { g_busy.fetch_sub(1, std::memory_order_relaxed); }

} // namespace poc::detail
