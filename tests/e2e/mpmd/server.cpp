// The server side of caller.cpp: the same Store, another Sample.
#define SAMPLE_FIELDS                                                                              \
  int id = 0;                                                                                      \
  double value = 0;                                                                                \
  long extra = 0;
#include "store.hpp"

#include <poc/machine.hpp>

int main() {
  Store *s = new (poc::rank_machine(0)) Store();
  s->put(Sample{});
  delete s;
  return 0;
}
