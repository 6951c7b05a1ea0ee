// mpirun -n 1 caller : -n 1 server: the caller's Sample has two fields, the
// server's three. A call that carries a Sample is refused with an error
// naming the class; calls that carry none work; nothing is misread.
#define SAMPLE_FIELDS                                                                              \
  int id = 0;                                                                                      \
  double value = 0;
#include "store.hpp"

#include <poc/errors.hpp>
#include <poc/machine.hpp>

#include <cstdio>

int main() {
  if (poc::job_ranks() < 2) {
    std::printf("FAILED: run as mpirun -n 1 caller : -n 1 server\n");
    return 1;
  }
  Store *s = new (poc::rank_machine(1)) Store();
  std::printf("count: %d\n", s->count());
  try {
    s->put(Sample{1, 2.5});
    std::printf("FAILED: a Sample of another layout was accepted\n");
  } catch (const poc::remote_error &e) {
    std::printf("put refused: %s\n", e.message().c_str());
  }
  std::printf("sum: %g\n", s->sum());
  delete s;
  return 0;
}
