// The call and subscript operators of a process, through a pointer.
#include <cstdio>
#include <vector>

class Table {
public:
  Table() = default;
  void operator()(double v) { values.push_back(v); }
  double operator()(int i, double scale) const { return values[i] * scale; }
  double operator[](int i) const { return values[i]; }
  int size() const { return static_cast<int>(values.size()); }

private:
  std::vector<double> values;
};

int main() {
  Table *t = new ("m1") Table();
  (*t)(1.5);
  (*t)(2.5);
  start (*t)(4.0);
  poc::sync();
  auto third = start(*t)[2];
  std::printf("call %.1f subscript %.1f started %.1f size %d\n", (*t)(1, 2.0), (*t)[0], third.get(),
              t->size());
  delete t;
  return 0;
}
