#include <cstdio>
#include <string>
#include <vector>

unsigned long checksum(const std::string &s);

int main() {
  std::vector<std::string> words{"poc", "plus", "plus"};
  unsigned long sum = 0;
  for (const std::string &w : words)
    sum ^= checksum(w);
  std::printf("checksum %lx\n", sum);
  return 0;
}
