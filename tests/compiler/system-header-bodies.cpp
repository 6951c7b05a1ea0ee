// poc++'s parse skips the bodies of functions in system headers (library
// code it never rewrites, which the system compiler parses again), but the
// bodies the parse needs stay: constexpr functions in constant expressions
// and deduced return types. The translation compiles and runs as written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pocxx -isystem %S/Inputs/system-headers %s -o %t/app --emit-generated %t/gen 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %t/app | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=GEN < %t/gen/system-header-bodies.poc.cpp
#include <library.hpp>

#include <cstdio>

class Counter {
public:
  int add(int n) { return total += library::twice(n); }

private:
  int total = 0;
};

static_assert(library::cells(3, 4) == 12);
static_assert(library::largest(3, 9) == 9);
double (*const halve)(long) = &library::half;

int main() {
  int grid[library::cells(2, 3)] = {};
  Counter *c = new ("m") Counter();
  // GEN: int total = ::poc_gen::Counter_client::add_0(c, library::twice(int(sizeof grid / sizeof grid[0])));
  int total = c->add(library::twice(int(sizeof grid / sizeof grid[0])));
  delete c;
  // OUT: total 24, half 2.5
  std::printf("total %d, half %.1f\n", total, halve(5));
}
