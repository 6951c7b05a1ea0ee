#include <cstdio>
#include <dataflow/dataflow.hpp>
#include <poc/machine.hpp>
#include <string>
#include <vector>
dataflow::TaskGraph build(const long &n) {
  const int machines = poc::job_ranks(); // 1 bare, K under mpirun -n K
  dataflow::TaskGraph g;
  auto join = g.node("join", [](long a, long b, long c, long d) { return a + b + c + d; });
  for (int part = 0; part < 4; ++part) {
    auto sum = g.node("part " + std::to_string(part), [n, part] {
      long s = 0;
      for (long i = part; i < n; i += 4)
        s += i;
      return s;
    });
    sum.pin(part % machines); // part k on machine k, wrapping round
    g.connect(sum, join);     // join's next free input: part k feeds input k
  }
  join.pin(0);
  return g;
}
int main(int argc, char **argv) {
  long n = 1000;
  dataflow::CommandLine line("sum", "");         // the program's name, its operands
  line.option("--count", "N: sum 0..N-1", n, 1); // its own options
  return dataflow::program_main(line, argc, argv, [&](const std::vector<std::string> &) {
    if (line.sequential()) {
      std::printf("sum: %ld\n", n * (n - 1) / 2);
      return;
    }
    const dataflow::Results r = dataflow::run(build, n, line.run_options());
    std::printf("sum: %ld\n", r.value<long>("join")); // --stats: run printed the stats
  });
}
