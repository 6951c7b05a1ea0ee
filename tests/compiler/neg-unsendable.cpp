// What cannot be sent to another process is a compile-time error naming the
// parameter or member and saying what to do.
// RUN: not %pocxx --translate-only %s -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mutex>

struct Blob {
  int n;
  double *values; // no length: cannot be sent
};

class Server {
public:
  Server() = default;
  void callback(void (*fn)(int)) { fn(1); }
  void raw(char tag, int *counts, int n) { counts[n] = tag; }
  void lock(std::mutex &m) { m.lock(); }
  void blob(Blob b) { (void)b; }
  void untyped(void *p) { (void)p; }
  int &slot() { return value; }
  int value = 0;

private:
  void secret() {}
  friend void peek(Server *s);
};

void noop(int) {}
void peek(Server *s) { s->secret(); }
// CHECK-DAG: neg-unsendable.cpp:[[#@LINE-1]]:27: error: 'secret' is not a public method of 'Server' and cannot be called on another process

int main() {
  Server *s = new ("m") Server;
  s->callback(&noop);
  // CHECK-DAG: neg-unsendable.cpp:[[#@LINE-1]]:15: error: cannot call 'Server::callback' on another process: parameter 'fn' of type 'void (*)(int)' cannot be sent (a pointer to a function or member, which has no meaning in another process; send data that selects the function instead)
  // CHECK-DAG: neg-unsendable.cpp:14:24: note: 'fn' declared here
  int local[4] = {};
  s->raw('a', local, 2);
  // CHECK-DAG: neg-unsendable.cpp:[[#@LINE-1]]:15: error: argument for parameter 'counts' of 'Server::raw' is a raw pointer to non-class data with no known length; pass a remote array ('new(machine) T[n]'), or change the parameter to std::vector or std::span, or annotate it with POC_COUNT(n) from <poc/annotations.hpp>
  std::mutex m;
  s->lock(m);
  // CHECK-DAG: neg-unsendable.cpp:[[#@LINE-1]]:11: error: cannot call 'Server::lock' on another process: parameter 'm' of type 'std::mutex &' cannot be sent (a library type that poc++ cannot send; send the data it holds (e.g. in a std::vector or a struct) instead)
  s->blob(Blob{1, nullptr});
  // CHECK-DAG: neg-unsendable.cpp:[[#@LINE-1]]:11: error: cannot call 'Server::blob' on another process: parameter 'b' of type 'Blob' cannot be sent (member 'Blob::values' of type 'double *', a raw pointer to non-class data with no known length; use std::vector, std::span or a POC_COUNT(n) annotation from <poc/annotations.hpp>)
  // CHECK-DAG: neg-unsendable.cpp:8:11: note: 'values' declared here
  s->untyped(nullptr);
  // CHECK-DAG: neg-unsendable.cpp:[[#@LINE-1]]:14: error: cannot call 'Server::untyped' on another process: parameter 'p' of type 'void *' cannot be sent (an untyped 'void*' with no known type or length; use a typed container such as std::vector)
  s->slot() = 3;
  // CHECK-DAG: neg-unsendable.cpp:[[#@LINE-1]]:6: error: cannot call 'Server::slot' on another process: its result type 'int &' cannot be sent back (a reference cannot refer into another process; return by value)
  int v = s->value;
  // CHECK-DAG: neg-unsendable.cpp:[[#@LINE-1]]:14: error: data member 'value' of 'Server' accessed through a pointer that may refer to another process; access it through a method instead
  delete s;
  return v;
}
