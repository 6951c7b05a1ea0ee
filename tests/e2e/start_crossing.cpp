// Two processes, each in a method, start calls with large arguments at each
// other. A started call returns at once even though its target is busy
// (its out-of-band data is copied), so neither waits for the other: before,
// each waited for the other to serve its call, and the job hung.
#include <cstdio>
#include <vector>

class Peer {
public:
  Peer() = default;
  void set_peer(Peer *p) { peer = p; }
  /// Starts a 4 MiB call at the peer and returns without waiting for it.
  void send_to_peer(double value) {
    std::vector<double> big(512 * 1024, value);
    start peer->take(big);
  }
  void take(const std::vector<double> &data) {
    for (double d : data)
      sum += d;
  }
  /// Waits for the calls this process started (poc::sync() in main waits
  /// only for main's own).
  void settle() { poc::sync(); }
  double total() const { return sum; }

private:
  Peer *peer = nullptr;
  double sum = 0;
};

int main() {
  Peer *a = new ("machine1") Peer();
  Peer *b = new ("machine2") Peer();
  a->set_peer(b);
  b->set_peer(a);
  for (int round = 0; round < 20; ++round) {
    start a->send_to_peer(1.0);
    start b->send_to_peer(2.0);
    poc::sync();
  }
  // Each side's started calls have run once it has settled.
  a->settle();
  b->settle();
  std::printf("a received %.0f, b received %.0f\n", a->total(), b->total());
  delete a;
  delete b;
  return 0;
}
