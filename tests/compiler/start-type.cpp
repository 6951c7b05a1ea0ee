// A file that declares a type named `start` never uses the keyword: `start x`
// is a declaration there.
// RUN: %pocxx --translate-only %s -o - | %nochecks | FileCheck %s
typedef int start;
int main() {
  start x = 2;
  // CHECK: start x = 2;
  return x;
}
