// An element of an array that may be remote is not a C++ object: binding it
// to a non-const reference is an error at the element, and nothing else is
// reported.
// RUN: not %pocxx --translate-only %s -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not=error:
void bump(double &x) { x += 1; }

double &first(double *d) { return d[0]; }
// CHECK-DAG: neg-remote-array-reference.cpp:[[#@LINE-1]]:35: error: an element of an array that may be remote cannot be bound to a reference variable or a non-const reference, nor changed through one of its members; copy its value ('auto v = data[i]') or assign the whole element ('data[i] = v')

int main() {
  double *d = new ("m") double[4];
  double &r = d[1];
  // CHECK-DAG: neg-remote-array-reference.cpp:[[#@LINE-1]]:15: error: an element
  auto &s = *d;
  // CHECK-DAG: neg-remote-array-reference.cpp:[[#@LINE-1]]:13: error: an element
  const double &c = d[3];
  // CHECK-DAG: neg-remote-array-reference.cpp:[[#@LINE-1]]:21: error: an element
  bump(d[2]);
  // CHECK-DAG: neg-remote-array-reference.cpp:[[#@LINE-1]]:8: error: an element
  double ok = first(d) + r + s + c;
  delete[] d;
  return static_cast<int>(ok);
}
