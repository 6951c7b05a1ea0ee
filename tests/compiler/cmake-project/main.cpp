// A process whose class lives in a header: editing the header must rebuild.
#include "counter.hpp"
#include <cstdio>

int main() {
  Counter *c = new ("m1") Counter(COUNTER_START);
  c->add(2);
  std::printf("count %d\n", c->get());
  delete c;
  return 0;
}
