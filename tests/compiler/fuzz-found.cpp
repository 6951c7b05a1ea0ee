// Programs the mutation fuzzer found accepted but mistranslated (their
// translation did not compile). Both are valid C++ and run as written.
// RUN: %pocxx --translate-only %s -o - | FileCheck %s
// RUN: %pocxx %s -o %t && %t | FileCheck %s --check-prefix=OUT
#include <cstdio>

// A remote-array parameter with a top-level const: the same method as
// `Reader(double *d)`, and passed as a plain pointer.
class Reader {
public:
  Reader(double *const d) : data(d) {}
  double first() const { return data[0]; }

private:
  double *data;
};
// CHECK: ctor_0 = ::poc::method_id("Reader::Reader(double *)")
// CHECK: static ::Reader *create_0(const ::poc::machine &where, double *d);

// A call operator that is a template (`auto` parameter): its wrapper unit
// is named after operator_call, not after the spelling `operator()`.
class Scaler {
public:
  double operator()(auto x, double scale) const { return x * scale; }
};
// CHECK: struct Scaler_operator_call_double_interface {
// CHECK: operator_call_0 =
// CHECK-NEXT: ::poc::method_id("Scaler::operator()<double>(double,double) const"),

// `main` named by the program (Clang accepts it as an extension): every
// declaration and every use means the renamed user main.
int main(int, char **);
// CHECK: int poc_user_main(int, char **);
static int (*entry)(int, char **) = main;
// CHECK: static int (*entry)(int, char **) = poc_user_main;

int main(int argc, char **argv) {
  double *data = new ("m") double[2];
  data[0] = 2.5;
  Reader *r = new ("m") Reader(data);
  Scaler *s = new ("m") Scaler();
  std::printf("first %.1f, scaled %.1f, entry is main: %d\n", r->first(), (*s)(1.5, 2.0),
              entry == &main);
  // OUT: first 2.5, scaled 3.0, entry is main: 1
  delete s;
  delete r;
  delete[] data;
  if (argc > 5)
    return main(argc - 1, argv);
}
