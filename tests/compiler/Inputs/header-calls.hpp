#pragma once
#include "input.h"

class Meter {
public:
  Meter() = default;
  int read() const { return 7; }
  void reset(int to) { (void)to; }
};

inline int readTwice(Meter *m) {
  start m->reset(0);
  return m->read() + m->read();
}
