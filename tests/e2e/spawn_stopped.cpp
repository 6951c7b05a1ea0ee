// A spawned host stopped with SIGSTOP while the program waits for it: its
// process still exists, but its heartbeats stop, so the job ends with an
// error naming the host instead of waiting forever (docs/runtime.md
// section 11). Run with POC_HOST_CAPACITY=1, so that the second process is
// on a spawned host, and POC_HOST_SILENCE_S=3.
#include "process_state.hpp"

#include <csignal>
#include <cstdio>
#include <unistd.h>

class Sleeper {
public:
  Sleeper() = default;
  int pid() const { return static_cast<int>(getpid()); }
  int ping() const { return 1; }
};

int main() {
  Sleeper *near = new ("m") Sleeper();
  Sleeper *far = new ("m") Sleeper();
  const int pid = far->pid();
  if (pid == near->pid()) {
    std::printf("FAILED: the second process is not on a spawned host\n");
    return 1;
  }
  kill(pid, SIGSTOP);
  while (process_state(pid) != 'T') // a host still running would answer
    usleep(1000);
  std::printf("stopped the spawned host\n");
  std::fflush(stdout);
  far->ping();
  std::printf("FAILED: a call to a stopped host returned\n");
  return 1;
}
