// Load: 64 processes in a ring, 12,800 calls started by main at once (all
// outstanding together), each of which starts a call at the next process
// in the ring. Every sum must be exact and nothing may deadlock. Run under
// mpirun -n 8 on an oversubscribed machine by ctest (e2e.load.np8); the
// time it took is printed for bench/RESULTS.md, never checked.
#include <chrono>
#include <cstdio>
#include <vector>

class Tally {
public:
  Tally() = default;
  void SetNext(Tally *n) { next = n; }
  void Add(long v) {
    sum += v;
    ++count;
  }
  /// Adds \p v here and passes v + 1 on to the next process of the ring.
  void AddAndForward(long v) {
    Add(v);
    start next->Add(v + 1);
  }
  /// Waits until the calls this process started have run.
  void Flush() { poc::sync(); }
  long Sum() const { return sum; }
  long Count() const { return count; }

private:
  Tally *next = nullptr;
  long sum = 0;
  long count = 0;
};

int main() {
  const int processes = 64;
  const long calls = 12800;
  auto begin = std::chrono::steady_clock::now();
  std::vector<Tally *> ring(processes);
  for (int k = 0; k < processes; ++k)
    start ring[k] = new ("node") Tally();
  for (int k = 0; k < processes; ++k)
    start ring[k]->SetNext(ring[(k + 1) % processes]);
  for (long i = 0; i < calls; ++i)
    start ring[i % processes]->AddAndForward(i);
  poc::sync();
  for (Tally *t : ring)
    t->Flush();

  // Tally k got every i with i % 64 == k, and i + 1 for every i of the
  // tally before it in the ring.
  std::vector<long> expected(processes, 0), count(processes, 0);
  for (long i = 0; i < calls; ++i) {
    expected[i % processes] += i;
    expected[(i + 1) % processes] += i + 1;
    count[i % processes] += 1;
    count[(i + 1) % processes] += 1;
  }
  int wrong = 0;
  for (int k = 0; k < processes; ++k)
    if (ring[k]->Sum() != expected[k] || ring[k]->Count() != count[k]) {
      std::printf("DIFFERENT: tally %d has sum %ld count %ld, expected %ld and %ld\n", k,
                  ring[k]->Sum(), ring[k]->Count(), expected[k], count[k]);
      ++wrong;
    }
  for (Tally *t : ring)
    delete t;
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (wrong == 0)
    std::printf("load: %ld started calls over %d processes, %ld forwarded between them: exact\n",
                calls, processes, calls);
  std::printf("load: took %.3f s\n", seconds);
  return wrong == 0 ? 0 : 1;
}
