// Misplaced `start` and started forms that cannot work are errors.
// RUN: not %pocxx --translate-only %s -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not=error:
#include <string>

class Cell {
public:
  Cell() = default;
  void swap(std::string &s) { s.swap(text); }
  int size() const { return static_cast<int>(text.size()); }

private:
  std::string text;
};

int twice(int x) { return 2 * x; }

int main() {
  int x = 0;
  start x = 3;
  // CHECK-DAG: neg-start.cpp:[[#@LINE-1]]:3: error: 'start' must be followed by a function call, a method call or a process creation 'new(machine) T(...)'
  Cell *c = new ("m") Cell;
  std::string s = "a";
  auto f = start c->size();
  auto g = start twice(x);
  // CHECK-DAG: neg-start.cpp:[[#@LINE-1]]:18: error: poc++ does not support the result of a started local call; use 'start' as a statement and poc::sync(), or start a method of a process
  return f.get() + x;
}
