#include "counter.hpp"
#include <cstdio>

int main() {
  Counter *c = make_counter("machine1");
  for (int i = 1; i <= 4; ++i)
    start c->add(i);
  std::printf("total %d\n", c->add(0));
  delete c;
  return 0;
}
