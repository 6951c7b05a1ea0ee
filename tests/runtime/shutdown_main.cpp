// The program ends while processes are alive, busy, queued up and waiting
// at a barrier: every process ends, nothing hangs (the ctest timeout is the
// check), and the exit status is main's.

#include "counter.hpp"

#include <poc/gen/runtime.hpp>

#include <cstdio>
#include <cstring>

using demo::Counter;
using demo::Counter_client;
using C = demo::Counter_interface;

namespace {

int body(int argc, char **argv) {
  std::vector<Counter *> cs;
  for (int i = 0; i < 8; ++i)
    cs.push_back(Counter_client::start_create_0("m", i));
  // Busy: a method still running when main returns.
  Counter_client::sleep_ms_0_start(cs[0], 300);
  // Queued: many started calls not yet served.
  for (int i = 0; i < 5000; ++i)
    Counter_client::append_0_start(cs[1], i);
  // Waiting at a barrier that the other member never reaches.
  Counter *pair[2] = {cs[2], cs[3]};
  Counter_client::SetProcessGroup_0(cs[2], 0, 2, pair);
  Counter_client::SetProcessGroup_0(cs[3], 1, 2, pair);
  int *board = poc::create_array<int>("m", 8);
  Counter_client::rounds_0_start(cs[2], 1, board);
  // A process in the middle of a call to another process.
  Counter_client::sleep_ms_0_start(cs[4], 100);
  {
    poc::Call call(cs[5], C::add_to_0);
    call.args(cs[4], 1);
    call.start();
  }
  std::printf("main returns with live processes\n");
  if (argc > 1 && std::strcmp(argv[1], "--throw") == 0)
    throw std::runtime_error("deliberate failure in main");
  return 0;
}

} // namespace

int main(int argc, char **argv) { return poc::run(argc, argv, &body); }
