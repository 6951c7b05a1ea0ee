// A class that marks methods POC_NONBLOCKING gets a server function naming
// them by id (the runtime runs their calls where they arrive); a marked base
// method is named by its derived class's server too, and a class that marks
// none has no such function.
// RUN: %pocxx --translate-only %s -o %t.cpp
// RUN: %nochecks < %t.cpp | FileCheck %s
#include <poc/annotations.hpp>

class Base {
public:
  POC_NONBLOCKING void note(int k) { last = k; }

protected:
  int last = 0;
};

class Sink : public Base {
public:
  POC_NONBLOCKING void put(long v);
  long total() const { return sum; }

private:
  long sum = 0;
};

void Sink::put(long v) { sum += v; }

class Plain {
public:
  int get() const { return 1; }
};

int main() {
  Sink *s = new ("m1") Sink;
  Plain *p = new ("m2") Plain;
  start s->put(3);
  start s->note(1);
  long t = s->total() + p->get();
  delete p;
  delete s;
  return static_cast<int>(t);
}

// The servers come in the order of the classes' names.
// CHECK: struct Base_server : Base_interface {
// CHECK: static const char *nonblocking(std::uint64_t method) noexcept {
// CHECK-NEXT: switch (method) {
// CHECK-NEXT: case note_0:
// CHECK-NEXT: return "Base::note";
// CHECK-NEXT: default:
// CHECK-NEXT: return nullptr;
// CHECK: struct Plain_server : Plain_interface {
// CHECK-NOT: nonblocking
// CHECK: inline const ::poc::ClassRegistration<::Plain, Plain_server> Plain_registration{"Plain"};
// CHECK: struct Sink_server : Sink_interface {
// CHECK: static const char *nonblocking(std::uint64_t method) noexcept {
// CHECK-NEXT: switch (method) {
// CHECK-NEXT: case put_0:
// CHECK-NEXT: return "Sink::put";
// CHECK-NEXT: case ::poc::method_id("Base::note(int)"):
// CHECK-NEXT: return "Base::note";
// CHECK-NEXT: default:
// CHECK-NEXT: return nullptr;
// CHECK: inline const ::poc::ClassRegistration<::Sink, Sink_server> Sink_registration{"Sink"};
