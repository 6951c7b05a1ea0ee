// A spawned host killed with kill -9 while the program waits for it: the
// job ends with an error naming the host, instead of waiting forever
// (docs/runtime.md section 11). Run with POC_HOST_CAPACITY=1, so that the
// second process is on a spawned host.
#include "process_state.hpp"

#include <csignal>
#include <cstdio>
#include <unistd.h>

class Victim {
public:
  Victim() = default;
  int pid() const { return static_cast<int>(getpid()); }
  int ping() const { return 1; }
};

int main() {
  Victim *near = new ("m") Victim();
  Victim *far = new ("m") Victim();
  const int pid = far->pid();
  if (pid == near->pid()) {
    std::printf("FAILED: the second process is not on a spawned host\n");
    return 1;
  }
  kill(pid, SIGKILL);
  for (char state = process_state(pid); state && state != 'Z'; state = process_state(pid))
    usleep(1000); // a host still running would answer
  std::printf("killed the spawned host\n");
  std::fflush(stdout);
  far->ping();
  std::printf("FAILED: a call to a dead host returned\n");
  return 1;
}
