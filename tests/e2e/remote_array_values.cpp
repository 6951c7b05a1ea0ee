// Reads of array elements are values of the element type, the same for an
// array held by another process as for a local one: each context below runs
// on both and prints the same line. Writes (=, +=, ++) go to the element.
#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

double element(double *d, int i) { return d[i]; } // a return statement

void exercise(const char *name, double *d) {
  for (int i = 0; i < 8; ++i)
    d[i] = i + 0.5;
  d[3] = 4.5;
  auto copied = d[3];             // auto deduces double: a copy
  decltype(auto) declared = d[3]; // so does decltype(auto)
  const double bound = d[3];      // a const copy
  d[3] = 100;                     // later writes do not show through
  std::printf("%s: auto %.1f decltype %.1f const %.1f now %.1f\n", name, copied, declared, bound,
              d[3]);
  double larger = std::max(d[1], 2.0);          // template argument deduction
  std::vector v{d[0], d[1], d[2]};              // class template argument deduction
  auto [first, second] = std::pair(d[4], d[5]); // structured bindings
  std::printf("%s: max %.1f vector %zu %.1f pair %.1f %.1f return %.1f\n", name, larger, v.size(),
              v[2], first, second, element(d, 6));
  double sum = 0;
  for (double x : {d[0], d[1], d[2]}) // a range-for over copies
    sum += x;
  d[7] += 1;
  d[7]++;
  double before = d[7]--;
  ++*d;
  std::printf("%s: sum %.1f updated %.1f before %.1f first %.1f\n", name, sum, d[7], before, *d);
}

int main() {
  double local[8];
  exercise("local", local);
  double *remote = new ("m1") double[8];
  exercise("remote", remote);
  delete[] remote;
  return 0;
}
