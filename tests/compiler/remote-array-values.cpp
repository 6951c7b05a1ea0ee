// A read of a remote array element is a value of the element type wherever
// C++ needs a value (::poc::element_value); only assignments, compound
// assignments and increments write through an element reference
// (::poc::element).
// RUN: %pocxx --translate-only %s -o - | %nochecks | FileCheck %s
#include <algorithm>
#include <cstdio>
#include <vector>

struct Point {
  double x, y;
};

double half(double *d, int i) { return d[i] / 2; }
// CHECK: double half(double *d, int i) { return ::poc::element_value(d, i) / 2; }

template <class T> T twice(const T &v) { return v + v; }

int main() {
  double *d = new ("m") double[8];
  std::printf("%f\n", d[7]);
  // CHECK: std::printf("%f\n", ::poc::element_value(d, 7));
  d[3] = 4.5;
  // CHECK-NEXT: ::poc::element(d, 3) = 4.5;
  auto a = d[3];
  // CHECK-NEXT: auto a = ::poc::element_value(d, 3);
  decltype(auto) b = d[3];
  // CHECK-NEXT: decltype(auto) b = ::poc::element_value(d, 3);
  double m = std::max(d[1], 2.0);
  // CHECK-NEXT: double m = std::max(::poc::element_value(d, 1), 2.0);
  std::vector v{d[0], d[1]};
  // CHECK-NEXT: std::vector v{::poc::element_value(d, 0), ::poc::element_value(d, 1)};
  const double c = d[2];
  // CHECK-NEXT: const double c = ::poc::element_value(d, 2);
  double t = twice(d[4]);
  // CHECK-NEXT: double t = twice(::poc::element_value(d, 4));
  double p = (d[5]);
  // CHECK-NEXT: double p = (::poc::element_value(d, 5));
  d[1] += a;
  // CHECK-NEXT: ::poc::element(d, 1) += a;
  (d[2]) *= 2;
  // CHECK-NEXT: (::poc::element(d, 2)) *= 2;
  d[6]++;
  // CHECK-NEXT: ::poc::element(d, 6)++;
  --*d;
  // CHECK-NEXT: --::poc::element(d, 0);
  *d = *(d + 1);
  // CHECK-NEXT: ::poc::element(d, 0) = ::poc::element_value((d + 1), 0);
  double *at = &d[4];
  // CHECK-NEXT: double *at = &d[4];
  double sum = a + b + m + v[0] + c + t + p + half(d, 1) + *at;
  // CHECK-NEXT: double sum = a + b + m + v[0] + c + t + p + half(d, 1) + ::poc::element_value(at, 0);
  delete[] d;
  return static_cast<int>(sum);
}
