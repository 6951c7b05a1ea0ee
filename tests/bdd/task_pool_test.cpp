// Work stealing among the threads of a rank: the TaskPool on its own
// (results, a stolen task's failure), and the BDD operations on a
// ThreadTeam against the same operations on one thread.
#include "bdd/thread_team.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <atomic>
#include <chrono>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

using bdd::Edge;
using bdd::Level;
using bdd::Operation;
using bdd::Task;

/// fib(n) by spawning fib(n - 1) and computing fib(n - 2), every call a
/// task any thread may run.
class Fibonacci {
public:
  explicit Fibonacci(unsigned threads)
      : pool(threads,
             [this](unsigned worker, const Task &t, unsigned) { return fib(worker, t.a); }) {}

  Edge fib(unsigned worker, Edge n) {
    if (n < 2)
      return n;
    if (!pool.spawn(worker, Task{Operation::And, n - 1, 0, 0}, 0))
      return fib(worker, n - 1) + fib(worker, n - 2);
    const Edge here = fib(worker, n - 2);
    const std::optional<Edge> stolen = pool.sync(worker);
    return here + (stolen ? *stolen : fib(worker, n - 1));
  }

  bdd::TaskPool pool;
};

TEST(TaskPool, EveryTaskRunsOnceWhoeverRunsIt) {
  for (unsigned threads : {1u, 2u, 4u}) {
    Fibonacci f(threads);
    for (int run = 0; run < 3; ++run) {
      Edge result = 0;
      f.pool.run([&] { result = f.fib(0, 25); });
      EXPECT_EQ(result, 75025u) << threads << " threads";
    }
    EXPECT_GT(f.pool.counters().spawned, 0u);
    if (threads == 1) {
      EXPECT_EQ(f.pool.counters().steals, 0u);
    }
  }
}

TEST(TaskPool, AStolenTasksFailureIsRethrownAtSync) {
  std::atomic<bool> started{false};
  // Task a = 1 fails; a = 0 is a pause the owner spawns and syncs while it
  // waits, as an operation would: the owner shows its tasks to thieves
  // only when it spawns or syncs after one asked.
  bdd::TaskPool pool(2, [&](unsigned, const Task &t, unsigned) -> Edge {
    if (t.a == 0)
      return 0;
    started.store(true);
    throw std::runtime_error("task failed on a thief");
  });
  bool thrown = false;
  pool.run([&] {
    ASSERT_TRUE(pool.spawn(0, Task{Operation::And, 1, 2, 0}, 0));
    // The helper steals the oldest task, the failing one; wait for it.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!started.load() && std::chrono::steady_clock::now() < give_up) {
      ASSERT_TRUE(pool.spawn(0, Task{Operation::And, 0, 0, 0}, 0));
      pool.sync(0); // a pause nobody needs to steal; taken back or not, it returns 0
      std::this_thread::yield();
    }
    ASSERT_TRUE(started.load()) << "the helper never stole the task";
    try {
      pool.sync(0);
    } catch (const std::runtime_error &e) {
      thrown = std::string(e.what()) == "task failed on a thief";
    }
  });
  EXPECT_TRUE(thrown);
  EXPECT_GE(pool.counters().steals, 1u);
}

TEST(TaskPool, AFailureInsideRunIsRethrownAfterTheHelpersStop) {
  bdd::TaskPool pool(2, [](unsigned, const Task &, unsigned) -> Edge { return 0; });
  EXPECT_THROW(pool.run([] { throw std::logic_error("compute failed"); }), std::logic_error);
  Edge result = 1;
  pool.run([&] { result = 2; }); // the pool still works
  EXPECT_EQ(result, 2u);
}

/// The operations on 2 and 4 threads against one thread, on functions of
/// 16 levels (8 state bits and their next-state copies): canonical BDDs in
/// one table, so the same function is the same edge.
class ThreadedOperations : public testing::TestWithParam<unsigned> {
protected:
  ThreadedOperations()
      : table(MPI_COMM_WORLD, 32 << 20, 8, bdd::Access::Shared),
        cache(MPI_COMM_WORLD, 8 << 20, bdd::Access::Shared), m(table, cache) {}

  /// A random function: a random truth table on the levels in `levels`.
  Edge random_function(const std::vector<Level> &levels, std::size_t at = 0) {
    if (at == levels.size())
      return coin(random) ? bdd::kTrue : bdd::kFalse;
    return m.make(levels[at], random_function(levels, at + 1), random_function(levels, at + 1));
  }

  static constexpr unsigned kBits = 8;
  bdd::NodeTable table;
  bdd::OperationCache cache;
  bdd::Manager m;
  std::mt19937 random{20261127};
  std::bernoulli_distribution coin{0.5};
};

TEST_P(ThreadedOperations, SameResultsAsOneThread) {
  std::vector<Level> all, x, some;
  for (Level l = 0; l < 2 * kBits; ++l) {
    all.push_back(l);
    if (l % 2 == 0)
      x.push_back(l);
    if (l % 3 == 0)
      some.push_back(l);
  }
  std::vector<Level> domain; // the pairs of bits 1, 2, 5, 6
  for (Level b : {1u, 2u, 5u, 6u})
    domain.insert(domain.end(), {2 * b, 2 * b + 1});
  for (int trial = 0; trial < 4; ++trial) {
    const Edge f = random_function(all), g = random_function(all), h = random_function(all);
    const Edge states = random_function(x), relation = random_function(domain);
    const Edge quantified = m.cube(some), variables = m.cube(domain);
    Edge threaded[5];
    {
      bdd::ThreadTeam team(m, GetParam(), 64);
      team.run([&] {
        threaded[0] = m.apply_and(f, g);
        threaded[1] = m.apply_or(f, h);
        threaded[2] = m.ite(f, g, h);
        threaded[3] = m.exists(f, quantified);
        threaded[4] = m.relnext(states, relation, variables);
      });
      EXPECT_GT(team.counters().spawned, 0u);
    }
    // Again on one thread, with nothing in the cache to reuse.
    cache.clear_local();
    EXPECT_EQ(threaded[0], m.apply_and(f, g));
    EXPECT_EQ(threaded[1], m.apply_or(f, h));
    EXPECT_EQ(threaded[2], m.ite(f, g, h));
    EXPECT_EQ(threaded[3], m.exists(f, quantified));
    EXPECT_EQ(threaded[4], m.relnext(states, relation, variables));
  }
  // Every thread's lookups reached the table's counters.
  EXPECT_GT(table.counters().lookups, 0u);
}

INSTANTIATE_TEST_SUITE_P(Threads, ThreadedOperations, testing::Values(2u, 4u));

} // namespace
