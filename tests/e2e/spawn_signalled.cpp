// A spawned host killed with kill -9 (no argument) or stopped with SIGSTOP
// (`stop`) while the program waits for it: the job ends with an error
// naming the host, instead of waiting forever (docs/runtime.md section 11).
// A stopped host's process still exists; its missing heartbeats give it
// away. Run with POC_HOST_CAPACITY=1, so that the second process is on a
// spawned host (and, for `stop`, a short POC_HOST_SILENCE_S).
//
// Without an argument the program calls the killed host once its process
// has ended, and whichever part of the runtime notices the death first
// reports it. With `send_first` it calls at once, and its sends to other
// hosts fail from just before the kill, as Open MPI's may when their peer
// has died (failing_sends.hpp): the failed send notices the death before
// the runtime's watchdog can, and must report it as a death all the same.
#include "failing_sends.hpp"
#include "process_state.hpp"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>

class Victim {
public:
  Victim() = default;
  int pid() const { return static_cast<int>(getpid()); }
  int ping() const { return 1; }
};

int main(int argc, char **argv) {
  const bool stop = argc > 1 && std::strcmp(argv[1], "stop") == 0;
  const bool send_first = argc > 1 && std::strcmp(argv[1], "send_first") == 0;
  Victim *near = new ("m") Victim();
  Victim *far = new ("m") Victim();
  const int pid = far->pid();
  if (pid == near->pid()) {
    std::printf("FAILED: the second process is not on a spawned host\n");
    return 1;
  }
  if (send_first)
    fail_sends_from_now_on();
  // Said before the signal: the runtime may notice the death (and report
  // it) at any moment after it.
  std::printf("%s the spawned host\n", stop ? "stopping" : "killing");
  std::fflush(stdout);
  kill(pid, stop ? SIGSTOP : SIGKILL);
  // Signals take effect asynchronously: a host still running would answer.
  for (char state = process_state(pid); !send_first && state && state != (stop ? 'T' : 'Z');
       state = process_state(pid))
    usleep(1000);
  far->ping();
  std::printf("FAILED: a call to a %s host returned\n", stop ? "stopped" : "dead");
  return 1;
}
