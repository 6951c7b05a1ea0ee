// C++ errors are Clang's, at the user's location, and poc++ exits non-zero
// without output.
// RUN: not %pocxx --translate-only %s -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cpp
int main() {
  int x = undeclared + 1;
  // CHECK: neg-parse.cpp:[[#@LINE-1]]:11: error: use of undeclared identifier 'undeclared'
  // CHECK-NEXT: [[#@LINE-2]] | int x = undeclared + 1;
  // CHECK-NEXT: |         ^
  return x;
}
