// poc::sync() waits for exactly the calls its caller started, which the
// hosts that ran them count and acknowledge only when asked (docs/runtime.md
// section 4, "Completion is counted"). Main and a driver process on every
// rank each start calls at tallies on every rank, some of which throw, from
// their own thread and from a local task that keeps starting while they
// already wait in sync(), so sync() must ask again for what was started
// after its first question. Each round checks that sync() threw if and only
// if one of the round's own calls threw, and with one of that round's
// errors; at the end, every call has run exactly once.
//   e2e_sync_counts [rounds]
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

class Tally {
public:
  Tally() = default;
  /// Counts `n`; throws for every multiple of 7.
  void add(long n) {
    sum_ += n;
    ++calls_;
    if (n % 7 == 0)
      throw std::runtime_error("multiple of seven " + std::to_string(n));
  }
  long sum() const { return sum_; }
  long calls() const { return calls_; }

private:
  long sum_ = 0;
  long calls_ = 0;
};

namespace {

/// Starts the calls add(first) ... add(first + count - 1), at the tallies
/// in turn.
void start_adds(const std::vector<Tally *> &tallies, long first, long count) {
  for (long i = 0; i < count; ++i)
    start tallies[static_cast<std::size_t>(first + i) % tallies.size()]->add(first + i);
}

/// One round of a caller: calls add(first) ... add(first + count - 1), half
/// from a local task, half from this thread, then waits with poc::sync().
/// Returns what was wrong, or nothing.
std::string round(const std::vector<Tally *> &tallies, long first, long count) {
  const long half = count / 2;
  poc::start_local([&tallies, first, half] { start_adds(tallies, first, half); });
  start_adds(tallies, first + half, count - half);
  bool threw = false;
  std::string error;
  try {
    poc::sync();
  } catch (const poc::remote_error &e) {
    threw = true;
    error = e.message();
  }
  const long last = first + count - 1;
  const bool should_throw = last / 7 * 7 >= first;
  const std::string at = "round [" + std::to_string(first) + ", " + std::to_string(last) + "]: ";
  if (threw != should_throw)
    return at + (threw ? "sync() threw " + error : "sync() did not throw") + "\n";
  if (!threw)
    return {};
  const auto pos = error.find("multiple of seven ");
  const long n = pos == std::string::npos ? -1 : std::atol(error.c_str() + pos + 18);
  if (n < first || n > last || n % 7 != 0)
    return at + "sync() threw another round's error: " + error + "\n";
  return {};
}

/// The round sizes: some hold a multiple of 7, some do not.
long round_size(int r) { return 1 + (r * 5) % 13; }

} // namespace

class Driver {
public:
  explicit Driver(std::vector<Tally *> t) : tallies(std::move(t)) {}
  std::string play(long first, long count) { return round(tallies, first, count); }

private:
  std::vector<Tally *> tallies;
};

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 150;
  const int ranks = poc::host_count();
  std::vector<Tally *> tallies;
  for (int r = 0; r < ranks; ++r)
    tallies.push_back(new (poc::rank_machine(r)) Tally());
  std::vector<Driver *> drivers;
  for (int r = 0; r < ranks; ++r)
    drivers.push_back(new (poc::rank_machine(r)) Driver(tallies));

  std::string problems;
  long expected_calls = 0, expected_sum = 0, next = 1;
  auto take = [&](long count) {
    const long first = next;
    next += count;
    expected_calls += count;
    expected_sum += (first + next - 1) * count / 2;
    return first;
  };
  for (int r = 0; r < rounds; ++r) {
    const long count = round_size(r);
    std::vector<poc::future<std::string>> played;
    for (Driver *d : drivers) {
      const long first = take(count);
      played.push_back(start d->play(first, count));
    }
    const long first = take(count);
    problems += round(tallies, first, count);
    for (auto &f : played)
      problems += f.get();
  }

  long calls = 0, sum = 0;
  for (Tally *t : tallies) {
    calls += t->calls();
    sum += t->sum();
  }
  if (calls != expected_calls || sum != expected_sum)
    problems += "the tallies counted " + std::to_string(calls) + " calls (sum " +
                std::to_string(sum) + "), not " + std::to_string(expected_calls) + " (sum " +
                std::to_string(expected_sum) + ")\n";
  for (Driver *d : drivers)
    delete d;
  for (Tally *t : tallies)
    delete t;
  if (!problems.empty()) {
    std::printf("FAILED\n%s", problems.c_str());
    return 1;
  }
  std::printf("sync counts: %ld calls on %d ranks, each sync with its own errors\n", calls, ranks);
  return 0;
}
