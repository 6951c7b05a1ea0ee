// A class in a C++17 nested namespace (`namespace outer::inner {`, one
// block with one brace): the code poc++ inserts before the use leaves the
// block and re-enters it as written, and the program runs.
// RUN: %pocxx --emit-generated - %s | %nochecks | FileCheck %s
// CHECK: namespace outer::inline v1 {
// CHECK-NEXT: #line
// CHECK-NEXT: } // namespace outer::inline v1
// CHECK: } // namespace poc_gen
// CHECK-NEXT: namespace outer::inline v1 {
// RUN: %pocxx %s -o %t && %t | FileCheck %s --check-prefix=OUT
// OUT: 7
// OUT-NOT: {{.}}
#include <cstdio>
namespace outer::inner {
class Counter {
public:
  int add(int x) { return n += x; }

private:
  int n = 0;
};
} // namespace outer::inner
namespace outer::inline v1 {
inline int twice(inner::Counter *c) { return c->add(2) + c->add(3); }
} // namespace outer::inline v1
int main() {
  auto *c = new ("machine1") outer::inner::Counter;
  std::printf("%d\n", outer::twice(c));
  delete c;
}
