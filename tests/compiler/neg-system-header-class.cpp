// A class declared in a system header (found through -isystem, as CMake
// passes the folders of imported targets) is not made a process: poc++ says
// so at the creation, instead of generating code that does not compile.
// RUN: not %pocxx --translate-only -isystem %S/Inputs/system-headers %s -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not=error:
// With -I the same program translates.
// RUN: %pocxx --translate-only -I %S/Inputs/system-headers %s -o %t.cpp
#include <gauge.hpp>

int main() {
  Gauge *g = new ("m") Gauge(3);
  // CHECK: neg-system-header-class.cpp:[[#@LINE-1]]:14: error: poc++ does not support creating a process of 'Gauge', which is declared in a system header (a header found through -isystem or a system directory); include its folder with -I
  return g->read();
}
