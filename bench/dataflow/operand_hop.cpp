//===- operand_hop.cpp - One operand from machine to machine -------------===//
///
/// operand-hop [--hops H] [--bytes S...]: a chain of H nodes placed
/// alternately on machines 0 and 1 (run it under mpirun -n 2), each
/// passing on an S-byte operand, so every edge crosses machines. Prints the
/// microseconds per hop, best of 3; bench/dataflow/mpi_pingpong.cpp
/// measures half a raw MPI round trip of the same size.
///
//===----------------------------------------------------------------------===//
#include <dataflow/command_line.hpp>
#include <dataflow/dataflow.hpp>

#include <cstdio>

struct Hops {
  long hops = 0, bytes = 0, machines = 1;
  void poc_write(poc::Writer &w) const { w.write_all(hops, bytes, machines); }
  void poc_read(poc::Reader &r) { r.read_all(hops, bytes, machines); }
};

dataflow::TaskGraph hop_graph(const Hops &h) {
  dataflow::TaskGraph g;
  const long bytes = h.bytes;
  dataflow::Node previous = g.node("n0", [bytes] { return std::vector<char>(bytes, 'x'); });
  for (long i = 1; i < h.hops; ++i) {
    dataflow::Node next =
        g.node("n" + std::to_string(i), [](const std::vector<char> &v) { return v; });
    next.pin(static_cast<int>(i % h.machines));
    g.connect(previous, next);
    previous = next;
  }
  g.connect(previous, g.node("end", [](const std::vector<char> &) {}));
  return g;
}

int main(int argc, char **argv) {
  long hops = 2000;
  dataflow::CommandLine line("operand-hop", "BYTES...");
  line.option("--hops", "H: edges between machines (default 2000)", hops, 2);
  line.operands_from(1, "takes the operand sizes in bytes");
  return dataflow::program_main(line, argc, argv, [&](const std::vector<std::string> &sizes) {
    for (const std::string &size : sizes) {
      const Hops h{hops, std::stol(size), std::min(2, poc::job_ranks())};
      double best = 1e30;
      for (int r = 0; r < 3; ++r)
        best = std::min(best, dataflow::run(hop_graph, h, line.run_options()).stats().run_seconds);
      std::printf("operand %8ld bytes: %9.2f us per hop\n", h.bytes, best / double(hops) * 1e6);
    }
  });
}
