// The call and subscript operators of a process, called through a pointer
// (`(*p)(x)`, `(*p)[i]`, also started), are remote calls through wrappers
// named operator_call_<n> / operator_subscript_<n>.
// RUN: %pocxx --translate-only %s -o - | %nochecks | FileCheck %s
#include <vector>

class Table {
  /// `*this` is the object itself: its operators stay local calls.
  void clear() { *this = Table(); }
public:
  Table() = default;
  double operator()(int i, double scale) const { return values[i] * scale; }
  void operator()(double v) { values.push_back(v); }
  double operator[](int i) const { return values[i]; }

private:
  std::vector<double> values;
};
// CHECK: void clear() { *this = Table(); }
// CHECK: operator_call_0 = ::poc::method_id("Table::operator()(int, double) const"),
// CHECK: operator_call_1 = ::poc::method_id("Table::operator()(double)"),
// CHECK: operator_subscript_0 = ::poc::method_id("Table::operator[](int) const"),

int main() {
  Table *t = new ("m1") Table();
  (*t)(1.5);
  // CHECK: ::poc_gen::Table_client::operator_call_1(&(*t), 1.5);
  double a = (*t)(0, 2.0);
  // CHECK-NEXT: double a = ::poc_gen::Table_client::operator_call_0(&(*t), 0, 2.0);
  double b = (*t)[0];
  // CHECK-NEXT: double b = ::poc_gen::Table_client::operator_subscript_0(&(*t), 0);
  auto f = start (*t)[0];
  // CHECK-NEXT: auto f = ::poc_gen::Table_client::operator_subscript_0_future(&(*t), 0);
  start (*t)(4.0);
  // CHECK-NEXT: ::poc_gen::Table_client::operator_call_1_start(&(*t), 4.0);
  double c = t->operator()(0, 1.0);
  // CHECK-NEXT: double c = ::poc_gen::Table_client::operator_call_0(t, 0, 1.0);
  double sum = a + b + c + f.get();
  delete t;
  return static_cast<int>(sum);
}
