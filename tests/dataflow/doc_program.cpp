#include <cstdio>
#include <dataflow/dataflow.hpp>
#include <numeric>
#include <poc/machine.hpp>
#include <string>
#include <vector>
dataflow::TaskGraph build(long n, int parts) {
  const int machines = poc::job_ranks(); // 1 bare, K under mpirun -n K
  dataflow::TaskGraph g;
  // A row of nodes "part 0" ... "part 3": part k sums k, k + parts, ...
  const auto sums = g.nodes("part", parts, [n, parts](int part) {
    long s = 0;
    for (long i = part; i < n; i += parts)
      s += i;
    return s;
  });
  for (int part = 0; part < parts; ++part)
    sums[part].pin(part % machines); // part k on machine k, wrapping round
  auto join = g.join("join", sums, [](dataflow::Joined<long> s) { // all parts, in order
    return std::accumulate(s.begin(), s.end(), 0L);
  });
  join.pin(0);
  return g;
}
int main(int argc, char **argv) {
  long n = 1000;
  dataflow::CommandLine line("sum");             // the program's name; it takes no operands
  line.option("--count", "N: sum 0..N-1", n, 1); // its own options
  return dataflow::program_main(line, argc, argv, [&](const std::vector<std::string> &) {
    // The options reach run; --sequential runs the graph here, one node at a time.
    std::printf("sum: %ld\n", dataflow::run(build, n, 4, line).value<long>());
  });
}
