//===- pingpong.cpp - dataflow-pingpong: DtCraft's concurrent ping-pong --===//
///
/// dataflow-pingpong [--threshold N]
///
/// Two vertices, A and B, each in a container of its own, with a stream
/// each way (DtCraft, Huang et al. 2017, section III.B). A starts by sending a random bit
/// to B; each vertex adds what it receives to its counter and sends a bit
/// back, until its counter reaches the threshold: then it reports how many
/// messages it received and closes both streams, which ends the graph. The
/// bits come from a generator seeded per vertex, so every run prints the
/// same line.
///
//===----------------------------------------------------------------------===//
#include <dataflow/dataflow.hpp>

#include <cstdio>
#include <memory>
#include <random>

namespace {

/// One ball: its bits and what it has received.
struct Ball {
  std::minstd_rand bits;
  long sum = 0, received = 0;
  explicit Ball(unsigned seed) : bits(seed) {}
  int next_bit() { return static_cast<int>(bits() & 1); }
};

} // namespace

dataflow::StreamGraph pingpong_graph(const long &threshold) {
  dataflow::StreamGraph g;
  auto a_ball = std::make_shared<Ball>(1), b_ball = std::make_shared<Ball>(2);
  auto streams = std::make_shared<std::pair<dataflow::Stream<int>, dataflow::Stream<int>>>();
  auto a = g.vertex(
      "A", [a_ball, streams](dataflow::Vertex &v) { v.write(streams->first, a_ball->next_bit()); });
  auto b = g.vertex("B");
  a.reports<long>();
  b.reports<long>();
  // What a ball does with a bit: count it, then stop or send one back.
  auto play = [streams, threshold](std::shared_ptr<Ball> ball, bool is_a) {
    return [=](dataflow::Vertex &v, const int &bit) {
      ball->sum += bit;
      ++ball->received;
      if (ball->sum >= threshold) {
        v.report(ball->received);
        v.close(is_a ? streams->first : streams->second);
        return dataflow::Signal::close;
      }
      v.write(is_a ? streams->first : streams->second, ball->next_bit());
      return dataflow::Signal::keep;
    };
  };
  streams->first = g.stream<int>(a, b, play(b_ball, false));
  streams->second = g.stream<int>(b, a, play(a_ball, true));
  g.container({a});
  g.container({b});
  return g;
}

int main(int argc, char **argv) {
  long threshold = 100;
  dataflow::CommandLine line("dataflow-pingpong");
  line.option("--threshold", "N: a vertex stops when its counter reaches N (default 100)",
              threshold, 1);
  return dataflow::program_main(line, argc, argv, [&](const std::vector<std::string> &) {
    std::string winner;
    long received = 0, messages = 0;
    if (line.sequential()) {
      Ball balls[2] = {Ball(1), Ball(2)};
      int bit = balls[0].next_bit();
      for (int to = 1;; to = 1 - to) {
        Ball &ball = balls[to];
        ball.sum += bit;
        ++ball.received;
        ++messages;
        if (ball.sum >= threshold) {
          winner = to == 0 ? "A" : "B";
          received = ball.received;
          break;
        }
        bit = ball.next_bit();
      }
    } else {
      const dataflow::Results r = dataflow::run(pingpong_graph, threshold, line);
      for (const char *name : {"A", "B"})
        if (r.count(name) == 1) {
          winner = name;
          received = r.value<long>(name);
        }
      messages = received * 2 - (winner == "A" ? 0 : 1);
    }
    std::printf("pingpong: %s reached %ld after receiving %ld bits (%ld messages)\n",
                winner.c_str(), threshold, received, messages);
  });
}
