// Diagnostics quote the source as the user wrote it (not poc++'s parse
// markers), and no tool noise follows them.
// RUN: not %pocxx --translate-only %s -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=_Pst --implicit-check-not="Error while processing"
class A {
public:
  int g() { return 1; }
};

int main() {
  A *a = new ("m") A();
  auto fut = start a->g(); int x = undefined_name;
  // CHECK: neg-diagnostic-source.cpp:[[#@LINE-1]]:36: error: use of undeclared identifier 'undefined_name'
  // CHECK-NEXT: {{ *}}[[#@LINE-2]] |   auto fut = start a->g(); int x = undefined_name;
  start a->g(); undefined_too;
  // CHECK: neg-diagnostic-source.cpp:[[#@LINE-1]]:17: error: use of undeclared identifier 'undefined_too'
  // CHECK-NEXT: {{ *}}[[#@LINE-2]] |   start a->g(); undefined_too;
  return fut.get() + x;
}
// CHECK: 2 errors generated.
