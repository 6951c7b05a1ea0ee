// Compiled by drop-in.cpp with -Wall -Wextra -Wpedantic -Werror: a process
// class and its operand class in an anonymous namespace.
#include <cstdio>
namespace {
struct Operand {
  int count;
  double scale;
};
class Accumulator {
public:
  void add(const Operand &o) { sum += o.count * o.scale; }
  double total() const { return sum; }

private:
  double sum = 0;
};
} // namespace
int main() {
  Accumulator *a = new ("m") Accumulator;
  a->add({2, 1.5});
  std::printf("total %g\n", a->total());
  delete a;
  return 0;
}
