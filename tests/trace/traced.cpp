// A small program whose run tests/trace/check_trace.py reads in the trace
// POC_TRACE writes: synchronous and started calls, a call from one process
// to another, creations and deletions, a process group's barrier,
// poc::sync() and the saves of a persistent process.
#include <cstdio>

class Counter {
public:
  long add(long x) { return total_ += x; }
  long total() const { return total_; }

private:
  long total_ = 0;
};

class Relay : public poc::ProcessGroupMember {
public:
  explicit Relay(Counter *counter) : counter_(counter) {}
  long pass(long x) { return counter_->add(x); }
  void meet() { barrier(); }

private:
  Counter *counter_;
};

class Tally {
public:
  long add(long x) { return total_ += x; }

private:
  long total_ = 0;
};

int main() {
  const int n = 2;
  Counter *counter = new ("machine1") Counter;
  const char *machine[n] = {"machine1", "machine2"};
  Relay *relays[n];
  for (int i = 0; i < n; i++)
    start relays[i] = new (machine[i]) Relay(counter);
  for (int i = 0; i < n; i++)
    relays[i]->SetProcessGroup(i, n, relays);
  for (int i = 0; i < n; i++)
    start relays[i]->meet();
  counter->add(1);
  start counter->add(2);
  relays[0]->pass(3);
  poc::sync();

  Tally *tally = new (poc::persistent_at("machine2", "trace/tally")) Tally;
  tally->add(4);
  poc::checkpoint(tally);
  delete tally;

  std::printf("total %ld\n", counter->total());
  for (int i = 0; i < n; i++)
    delete relays[i];
  delete counter;
  return 0;
}
