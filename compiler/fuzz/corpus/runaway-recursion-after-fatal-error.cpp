// Clang 19 recurses without end on a default member initializer that
// creates an object of its own class (clang++-19 -fsyntax-only never ends on
// this file). poc++ stops at Clang's first "stack nearly exhausted" with an
// error at that place, instead of hanging and taking all memory. Found by
// the mutation fuzzer (compiler/fuzz/corpus/pagedevice-class-left-open.cpp).
// RUN: not %pocxx --translate-only %s -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %pocxx --translate-only %s -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not=error:
#include <n>

class Page {
  Page(std::size_t n, unsigned char *data) : n(n), data(new unsigned char[n]) {}
  Page(const Page &p) : Page(p.n, p.data) {}
  std::size_t n;
  unsigned char *data;
  std::size_t page_size = 4096;
  unsigned char zeros[4096] = {};
  Page *copy = new Page(page_size, zeros);
  // CHECK: neg-runaway-recursion.cpp:[[#@LINE-1]]:16: warning: stack nearly exhausted
  // CHECK: neg-runaway-recursion.cpp:[[#@LINE-2]]:16: error: poc++ stops here: Clang ran out of stack space analysing this code and would recurse without end
};
