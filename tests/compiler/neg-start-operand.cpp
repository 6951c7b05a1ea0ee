// A started call whose value would be the operand of an operator (other
// than a comma, `?:` or `=`) is an error at the `start`, and the only one:
// its value is a poc::future. The same for a void method, which Clang
// alone would report as an invalid operand.
// RUN: not %pocxx --translate-only %s -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
#include <cstdio>

class Bank {
public:
  explicit Bank(long m) : money(m) {}
  long balance() const { return money; }
  void add(long k) { money += k; }

private:
  long money;
};

template <class... B> long total(B *...banks) { return (start banks->balance() + ...); }
// CHECK: neg-start-operand.cpp:[[#@LINE-1]]:57: error: poc++ does not support 'start' on an operand of a fold expression over '+'; start the calls with a comma fold, (start p->f(), ...), or parenthesise the started call, ((start p->f()).get() + ...)
// CHECK-NEXT: template <class... B> long total(B *...banks) { return (start banks->balance() + ...); }

int main() {
  Bank *a = new ("m") Bank(1);
  long x = 1 + start a->balance();
  // CHECK: neg-start-operand.cpp:[[#@LINE-1]]:16: error: poc++ does not support 'start' on an operand of '+' (a started call's value is a poc::future); start the call in a statement or an initialiser of its own, auto f = start p->f();, and use f.get()
  // CHECK-NEXT: long x = 1 + start a->balance();
  x += start a->balance();
  // CHECK: neg-start-operand.cpp:[[#@LINE-1]]:8: error: poc++ does not support 'start' on an operand of '+='
  long y = 1 + start a->add(3);
  // CHECK: neg-start-operand.cpp:[[#@LINE-1]]:16: error: poc++ does not support 'start' on an operand of '+' (a started call's value is a poc::future); start the call in a statement or an initialiser of its own, auto f = start p->f();, and use f.get()
  // CHECK-NEXT: long y = 1 + start a->add(3);
  bool z = !start a->add(4);
  // CHECK: neg-start-operand.cpp:[[#@LINE-1]]:13: error: poc++ does not support 'start' on an operand of '!'
  std::printf("%ld %ld %ld %d\n", x, y, total(a, a), z);
  return !start a->balance();
  // CHECK: neg-start-operand.cpp:[[#@LINE-1]]:11: error: poc++ does not support 'start' on an operand of '!'
  // CHECK: 6 errors generated.
}
