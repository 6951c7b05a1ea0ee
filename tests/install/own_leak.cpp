// A program with a leak of its own, built with -fsanitize=address: the
// leak checker reports this leak (and none of Open MPI's), and the output
// before it reaches a pipe.
#include <cstdio>

struct Meter {
  long reading = 41;
  long read() const { return reading + 1; }
};

long *forgotten = nullptr;

void leak_a_buffer() {
  long *buffer = new long[8];
  buffer[0] = 1;
  forgotten = buffer;
  forgotten = nullptr;
}

int main() {
  Meter *m = new ("meter") Meter;
  std::printf("reading: %ld\n", m->read());
  delete m;
  leak_a_buffer();
  return 0;
}
