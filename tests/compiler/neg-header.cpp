// A header with process operations included twice into one translation
// unit (no include guard): its rewritten copy could serve only one of them.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not %pocxx --translate-only %s -o %t/out.cpp 2>&1 | FileCheck %s --implicit-check-not=error:

class Meter {
public:
  int read() const { return 1; }
};

int main() {
  Meter *m = new ("m") Meter();
  {
#include "Inputs/call-body.inc"
  }
  {
#include "Inputs/call-body.inc"
    // CHECK: neg-header.cpp:[[#@LINE-1]]:10: error: poc++ does not support including a header with process operations twice in one file; give it an include guard or '#pragma once'
  }
}
