// Operators of a process other than () and [] cannot be called through a
// pointer; nothing else is reported.
// RUN: not %pocxx --translate-only %s -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not=error:
class Account {
public:
  Account() = default;
  Account &operator+=(double v) {
    balance += v;
    return *this;
  }
  double get() const { return balance; }

private:
  double balance = 0;
};

int main() {
  Account *a = new ("m1") Account();
  *a += 5;
  // CHECK: neg-operators.cpp:[[#@LINE-1]]:6: error: poc++ does not support calling 'operator+=' through a pointer that may refer to another process (only operator() and operator[] are remote calls); call a named method instead
  double v = a->get();
  delete a;
  return static_cast<int>(v);
}
