// A started call's by-value arguments of class type are moved into the
// request (which then sends their large blocks from where they lie instead
// of copying them); a synchronous call passes them as they are, and
// references, pointers and scalars are never moved.
// RUN: %pocxx --translate-only %s -o %t.cpp
// RUN: %nochecks < %t.cpp | FileCheck %s

#include <string>
#include <vector>

class Store {
public:
  int keep(std::vector<int> v, const std::string &name, int k) {
    return static_cast<int>(v.size() + name.size()) + k;
  }
};

// CHECK: inline int poc_gen::Store_client::keep_0(::Store *self, ::std::vector<int> v, const ::std::string &name, int k) {
// CHECK: call.args(v, name, k);
// CHECK: inline void poc_gen::Store_client::keep_0_start(::Store *self, ::std::vector<int> v, const ::std::string &name, int k) {
// CHECK: call.args(std::move(v), name, k);
// CHECK-NEXT: call.start();
// CHECK: inline ::poc::future<int> poc_gen::Store_client::keep_0_future(::Store *self, ::std::vector<int> v, const ::std::string &name, int k) {
// CHECK: call.args(std::move(v), name, k);
// CHECK-NEXT: return call.start_future<int>();

int main() {
  Store *s = new ("m1") Store();
  std::vector<int> v(3);
  int sum = s->keep(v, "a", 1);
  start s->keep(std::move(v), "b", 2);
  auto f = start s->keep(std::vector<int>(4), "c", 3);
  sum += f.get();
  delete s;
  return sum == 0;
}
