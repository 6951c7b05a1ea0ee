// Remote arrays of non-trivially-copyable elements, aggregate creation,
// copy-constructing a process, process operations inside macros and a
// process of a local class.
// RUN: not %pocxx --translate-only %s -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not=error:
#include <string>

struct Agg {
  int a, b;
};
class Box {
public:
  Box() = default;
  Box(const Box &) = default;
  int get() const { return 1; }
};
#define GET(p) (p)->get()

int main() {
  std::string *names = new ("m") std::string[4];
  // CHECK-DAG: neg-misc.cpp:[[#@LINE-1]]:24: error: remote array element type 'std::string' (aka 'basic_string<char>') is not trivially copyable; use a process of a class holding a std::vector instead
  int *n = new ("m") int;
  // CHECK-DAG: neg-misc.cpp:[[#@LINE-1]]:12: error: 'new (machine) int' would create a process, but a process is an object of a class and 'int' is not a class; for a remote int, create an array of one: 'new (machine) int[1]'
  double *d = new ("m") double(2.5);
  // CHECK-DAG: neg-misc.cpp:[[#@LINE-1]]:15: error: 'new (machine) double' would create a process, but a process is an object of a class and 'double' is not a class; for a remote double, create an array of one: 'new (machine) double[1]'
  Agg *a = new ("m") Agg{1, 2};
  // CHECK-DAG: neg-misc.cpp:[[#@LINE-1]]:12: error: poc++ does not support creating a process of a class without a constructor call (aggregate initialisation); declare a constructor
  Box local;
  Box *b = new ("m") Box(local);
  // CHECK-DAG: neg-misc.cpp:[[#@LINE-1]]:12: error: poc++ does not support creating a process with a copy, move or non-public constructor
  int v = GET(b);
  // CHECK-DAG: neg-misc.cpp:[[#@LINE-1]]:11: error: poc++ does not support process operations inside macro expansions; write them outside the macro
  class Local {
  public:
    int get() const { return 2; }
  };
  Local *l = new ("m") Local();
  // CHECK-DAG: neg-misc.cpp:[[#@LINE-1]]:14: error: poc++ does not support creating a process of 'Local', a class defined inside a function; define it at namespace scope
  return v + (names != nullptr) + (a != nullptr) + l->get();
}
