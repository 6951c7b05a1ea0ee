// A dataflow program built against the installed package's dataflow
// component: a task graph that counts the words of four lines in parallel
// and sums them, the same bare and under mpirun.
#include <dataflow/dataflow.hpp>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using Lines = std::vector<std::string>;

dataflow::TaskGraph build(const Lines &lines) {
  dataflow::TaskGraph g;
  auto sum = g.node("sum", [](long a, long b, long c, long d) { return a + b + c + d; });
  for (int i = 0; i < 4; ++i) {
    auto count = g.node("count" + std::to_string(i), [line = lines[i]] {
      std::istringstream words(line);
      long n = 0;
      for (std::string w; words >> w;)
        ++n;
      return n;
    });
    g.connect(count, sum, i);
  }
  return g;
}

int main() {
  Lines lines{"the quick brown fox", "jumps over", "the lazy dog", "and runs away again"};
  dataflow::Results r = dataflow::run(build, lines);
  std::printf("words: %ld\n", r.value<long>("sum"));
  return 0;
}
