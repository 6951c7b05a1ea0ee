// Member function templates called on processes: each specialisation a file
// calls is registered there for every server of the class, including one
// declared by a public base and a template call operator.
#include <cstdio>
#include <string>

class Base {
public:
  virtual ~Base() = default;
  /// Declared by the base, called through a pointer to the derived class.
  template <class T> std::string describe(T x) const { return "value " + std::to_string(x); }
};

class Accumulator : public Base {
public:
  template <class T> double add(T x) { return total += static_cast<double>(x); }
  /// An abbreviated template operator.
  double operator()(auto x, double scale) const { return static_cast<double>(x) * scale + total; }

private:
  double total = 0;
};

int main() {
  Accumulator *a = new ("worker") Accumulator();
  std::printf("add int: %.1f\n", a->add(2));
  std::printf("add double: %.1f\n", a->add(1.5));
  auto f = start a->add(10L);
  std::printf("add long, started: %.1f\n", f.get());
  std::printf("call operator: %.1f\n", (*a)(3, 2.0));
  std::printf("base template: %s\n", a->describe(7).c_str());
  delete a;
  return 0;
}
