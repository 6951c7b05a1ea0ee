// Methods marked POC_NONBLOCKING: a call that reaches an idle process runs on
// the thread that received it. Whether a call ran there or was queued, the
// results are the same: a caller's calls run in order, values and errors come
// back, a large reply leaves from there, and a large argument's out-of-band
// block is received there too, in order with the calls around it. A marked
// method that waits after all, through code poc++ cannot see, gets
// poc::usage_error.
#include <poc/annotations.hpp>

#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

class Peer {
public:
  long value() const { return 42; }
};

/// A synchronous remote call out of sight of the marked method that calls
/// this function (poc++ rejects one in the method's own body).
long ask_synchronously(Peer *peer) { return peer->value(); }

class Tally {
public:
  POC_NONBLOCKING void add(long k) { total_ += k; }
  POC_NONBLOCKING long total() const { return total_; }
  POC_NONBLOCKING void fail(int k) { throw std::runtime_error("fail " + std::to_string(k)); }
  /// Starts a call from where it runs.
  POC_NONBLOCKING void forward(Tally *next, long k) { start next->add(k); }
  POC_NONBLOCKING long add_all(const std::vector<long> &values) {
    total_ += std::accumulate(values.begin(), values.end(), 0L);
    return total_;
  }
  POC_NONBLOCKING std::vector<double> filled(std::size_t n, double value) const {
    return std::vector<double>(n, value);
  }
  POC_NONBLOCKING long ask(Peer *peer) { return ask_synchronously(peer); }
  /// Waits for the calls this process started.
  void settle() { poc::sync(); }

private:
  long total_ = 0;
};

int main() {
  Tally *a = new ("m1") Tally;
  Tally *b = new ("m2") Tally;
  Peer *peer = new ("m3") Peer;

  for (long i = 1; i <= 1000; ++i)
    start a->add(i);
  std::printf("a total %ld\n", a->total());

  for (long i = 1; i <= 100; ++i)
    start a->forward(b, i);
  poc::sync();
  a->settle();
  std::printf("b total %ld\n", b->total());

  try {
    a->fail(1);
    std::printf("FAILED: a->fail(1) returned\n");
  } catch (const poc::remote_error &e) {
    std::printf("a->fail: %s: %s\n", e.type().c_str(), e.message().c_str());
  }
  start a->fail(2);
  try {
    poc::sync();
    std::printf("FAILED: the started fail(2) was not reported\n");
  } catch (const poc::remote_error &e) {
    std::printf("started fail: %s: %s\n", e.type().c_str(), e.message().c_str());
  }

  std::vector<long> many(200000, 3);
  std::printf("add_all %ld\n", b->add_all(many));
  // Started calls with and without out-of-band blocks (20,000 longs each,
  // 160 KB), alternating: each runs exactly once.
  const long before = b->total();
  std::vector<long> ones(20000, 1);
  for (int i = 0; i < 200; ++i) {
    start b->add_all(ones);
    start b->add(i % 2 == 0 ? 1 : -1);
  }
  poc::sync();
  std::printf("large starts added %ld\n", b->total() - before);
  std::vector<double> big = a->filled(300000, 0.5);
  std::printf("filled %zu, sum %.1f\n", big.size(), std::accumulate(big.begin(), big.end(), 0.0));

  // The first call that runs where it arrives throws; one queued behind
  // the end of another request of `a` (its thread had not yet left) waits
  // and returns the peer's value, so ask until it runs in place.
  bool reported = false;
  for (int attempt = 0; attempt < 1000 && !reported; ++attempt) {
    try {
      if (a->ask(peer) != 42)
        std::printf("FAILED: ask returned a wrong value\n");
    } catch (const poc::remote_error &e) {
      reported =
          e.is<poc::usage_error>() &&
          e.message().find("Tally::ask is marked POC_NONBLOCKING but waited") != std::string::npos;
      if (!reported)
        std::printf("FAILED: ask threw %s: %s\n", e.type().c_str(), e.message().c_str());
    }
  }
  std::printf("ask waited: %s\n", reported ? "usage_error" : "FAILED: never reported");

  // A marked method of a local object is an ordinary call.
  Tally local;
  local.add(5);
  start local.add(6);
  poc::sync();
  std::printf("local total %ld\n", local.total());

  delete peer;
  delete b;
  delete a;
  return 0;
}
