// Many senders start calls of every size class at sinks on every rank, all
// at once; each sink checks that it receives each sender's messages once
// each, in the order sent, byte for byte. Same-node messages travel through
// the shared rings (and wait in their queues when a ring is full), others
// through MPI; small, oversized and out-of-band arguments all cross. Run
// with 2, 4 and 8 ranks (oversubscribed), with the smallest rings, and
// with the rings turned off (tests/e2e/CMakeLists.txt).
//   e2e_message_order [messages per sender and sink]
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

/// The size of message `seq` of `sender`: mostly small, some just below
/// and above what one posted receive takes, a few large.
std::size_t size_of(int sender, int seq) {
  static constexpr std::size_t kSizes[] = {0,     1,     8,     24,    100,   1000, 4000,   16000,
                                           16383, 16384, 20000, 40000, 70000, 8,    300000, 64};
  return kSizes[static_cast<unsigned>(seq + sender) % 16];
}

unsigned char byte_of(int sender, int seq, std::size_t i) {
  return static_cast<unsigned char>(sender * 31 + seq * 7 + static_cast<int>(i));
}

std::vector<unsigned char> payload(int sender, int seq) {
  std::vector<unsigned char> bytes(size_of(sender, seq));
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = byte_of(sender, seq, i);
  return bytes;
}

} // namespace

class Sink {
public:
  Sink() = default;
  void take(int sender, int seq, const std::vector<unsigned char> &bytes) {
    int &next = next_[sender];
    if (seq != next && problems_.size() < 10)
      problems_ += "sender " + std::to_string(sender) + ": message " + std::to_string(seq) +
                   " came when " + std::to_string(next) + " was due\n";
    next = seq + 1;
    bool intact = bytes.size() == size_of(sender, seq);
    for (std::size_t i = 0; intact && i < bytes.size(); ++i)
      intact = bytes[i] == byte_of(sender, seq, i);
    if (!intact)
      problems_ +=
          "sender " + std::to_string(sender) + ": message " + std::to_string(seq) + " is damaged\n";
    ++received_;
  }
  /// Empty if every one of `senders` senders' `count` messages came.
  std::string problems(int senders, int count) const {
    std::string all = problems_;
    for (int s = 0; s < senders; ++s) {
      auto it = next_.find(s);
      const int got = it == next_.end() ? 0 : it->second;
      if (got != count)
        all += "sender " + std::to_string(s) + ": last message " + std::to_string(got - 1) +
               " of " + std::to_string(count) + "\n";
    }
    return all;
  }
  long received() const { return received_; }

private:
  std::map<int, int> next_;
  std::string problems_;
  long received_ = 0;
};

class Source {
public:
  explicit Source(int id) : id_(id) {}
  /// Starts `count` messages at each sink, interleaved, then waits for them.
  void blast(const std::vector<Sink *> &sinks, int count) {
    for (int seq = 0; seq < count; ++seq)
      for (Sink *sink : sinks)
        start sink->take(id_, seq, payload(id_, seq));
    poc::sync();
  }

private:
  int id_;
};

int main(int argc, char **argv) {
  const int count = argc > 1 ? std::atoi(argv[1]) : 200;
  const int ranks = poc::host_count();
  std::vector<Sink *> sinks;
  std::vector<Source *> sources;
  for (int r = 0; r < ranks; ++r) {
    sinks.push_back(new (poc::rank_machine(r)) Sink());
    for (int k = 0; k < 2; ++k)
      sources.push_back(new (poc::rank_machine(r)) Source(static_cast<int>(sources.size())));
  }
  for (Source *source : sources)
    start source->blast(sinks, count);
  poc::sync();
  int failed = 0;
  long received = 0;
  for (Sink *sink : sinks) {
    const std::string problems = sink->problems(static_cast<int>(sources.size()), count);
    if (!problems.empty()) {
      std::printf("FAILED:\n%s", problems.c_str());
      ++failed;
    }
    received += sink->received();
    delete sink;
  }
  for (Source *source : sources)
    delete source;
  const long expected = static_cast<long>(sources.size()) * static_cast<long>(sinks.size()) * count;
  std::printf("%ld of %ld messages received in order and intact\n", received, expected);
  return failed || received != expected ? 1 : 0;
}
