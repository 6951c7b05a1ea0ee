// Encoding a class that cannot be sent is an error at the instantiation
// that encodes it, naming the member; nothing else is reported.
// RUN: not %pocxx --translate-only %s -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not=error:
#include <poc/serialize.hpp>

#include <mutex>

struct Guarded {
  int value = 0;
  std::mutex lock;
  // CHECK-DAG: neg-encoded-unsendable.cpp:[[#@LINE-1]]:14: note: 'lock' declared here
};

template <class T> void save(const T &value, poc::Writer &w) { w.write(value); }
// CHECK-DAG: neg-encoded-unsendable.cpp:[[#@LINE-1]]:66: error: values of type 'Guarded' are encoded here but cannot be sent

int main() {
  Guarded g;
  poc::Writer w;
  save(g, w);
  return 0;
}
