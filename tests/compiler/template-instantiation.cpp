// Valid, template-heavy C++ that crashed poc++ (issue 23, part 0): poc++
// instantiates the user's function templates after the parse, when Sema's
// translation-unit scope is gone, and the implicit copy of an array member
// looks up __builtin_memcpy, which Clang declares in that scope. The file
// must translate, compile and run as clang++ runs it.
// RUN: %pocxx --translate-only %s -o - | %nochecks | FileCheck %s
// RUN: %pocxx %s -o %t && %t | FileCheck %s --check-prefix=OUT
// RUN: %pocxx --translate-only %S/Inputs/array-member-copy.cpp -o - | FileCheck %s --check-prefix=MIN
// MIN: void g(S &s) { f(s); }
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

// The reproducer of the issue.
struct S { int a[1]; };
template <class T> void f(T &x) { x = x; }
void g(S &s) { f(s); }
// CHECK: void g(S &s) { f(s); }

struct Grid {
  double cells[3][4];
  char name[8];
};
struct Nested {
  Grid grids[2];
  std::array<S, 3> more;
};

template <class T> T copyOf(const T &x) {
  T y = x;
  y = x;
  return y;
}
template <class T> void moveAssign(T &to, T &&from) { to = std::move(from); }
template <class T> struct Box {
  T value;
  Box &operator=(const Box &) = default;
  void reset(const T &v) { value = v; }
};
template <class T> std::vector<T> sortedCopies(std::vector<T> v) {
  std::sort(v.begin(), v.end(), [](const T &a, const T &b) { return a.a[0] < b.a[0]; });
  return v;
}
template <class... T> auto tupled(const T &...xs) { return std::tuple<T...>(xs...); }
template <class T> void zero(T &x) { std::memset(&x, 0, sizeof x); x = T{}; }
template <class T> std::optional<T> maybe(bool b, const T &x) {
  if (b)
    return x;
  return std::nullopt;
}
template <class F, class T> auto apply(F fn, T x) { return std::invoke(fn, x); }

// A process whose method takes a class with array members, called from a
// template: the serializer of Grid is generated, the call rewritten.
class Store {
public:
  void put(const Grid &g) { kept = copyOf(g); }
  double at(int i, int j) const { return kept.cells[i][j]; }

private:
  Grid kept{};
};
template <class P, class T> void putAll(P *p, const std::vector<T> &xs) {
  for (const T &x : xs)
    p->put(copyOf(x));
}
// CHECK: ::poc_gen::call_put(p, copyOf(x));

int main() {
  S s{{7}};
  g(s);
  Nested n{};
  n.grids[1].cells[2][3] = 1.5;
  std::strcpy(n.grids[1].name, "grid");
  Nested m = copyOf(n);
  moveAssign(m, copyOf(n));
  Box<Grid> box{};
  box.reset(m.grids[1]);
  Box<Grid> other = box;
  other = box;
  std::vector<S> v{{{3}}, {{1}}, {{2}}};
  auto w = sortedCopies(v);
  auto t = tupled(s, m.grids[0], std::string("x"));
  std::map<int, Grid> byId;
  byId[4] = copyOf(other.value);
  std::variant<S, Grid> var = copyOf(s);
  var = other.value;
  zero(s);
  auto o = maybe(true, m);
  int first = apply([](const S &x) { return x.a[0]; }, w.front());
  std::printf("%d %d %.1f %s %d %zu %d\n", s.a[0], first, o->grids[1].cells[2][3],
              byId[4].name, std::get<0>(t).a[0], var.index(), w.back().a[0]);
  Store *st = new ("m") Store();
  putAll(st, std::vector<Grid>{m.grids[0], m.grids[1]});
  std::printf("stored %.1f\n", st->at(2, 3));
  delete st;
}
// OUT: 0 1 1.5 grid 7 1 3
// OUT-NEXT: stored 1.5
