#include "bdd/team.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace bdd {

void wait_quietly(MPI_Request &request) {
  using namespace std::chrono;
  int done = 0;
  const auto spin_until = steady_clock::now() + microseconds(100);
  while (!done && steady_clock::now() < spin_until)
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  microseconds pause(20);
  while (!done) {
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, microseconds(1000));
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

} // namespace bdd
