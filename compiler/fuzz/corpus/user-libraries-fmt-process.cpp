// {fmt} as user headers (-I, copied out of /usr/include) in a file with
// process operations.
#define FMT_HEADER_ONLY
#include "fmt/format.h"

#include <string>

class Namer {
public:
  std::string name(int n) const { return fmt::format("node-{}", n); }
};

int main() {
  Namer *n = new ("machine1") Namer;
  std::string s = n->name(4);
  delete n;
  return s == "node-4" ? 0 : 1;
}
