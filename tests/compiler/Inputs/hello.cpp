// Linked and run by driver.cpp: poc++ makes an executable from sources and
// objects, linking the runtime.
#include <cstdio>
class Greeter {
public:
  Greeter() = default;
  int twice(int x) const { return 2 * x; }
};
int main() {
  Greeter *g = new ("machine1") Greeter;
  std::printf("hello %d\n", g->twice(21));
  delete g;
  return 0;
}
