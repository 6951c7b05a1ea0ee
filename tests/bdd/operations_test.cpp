// Every BDD operation against a brute-force truth table on small random
// functions, through both access paths of the distributed memory.
#include "bdd/garbage_collector.hpp"
#include "bdd/manager.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

namespace {

class MpiEnvironment : public testing::Environment {
public:
  void SetUp() override {
    int provided;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided);
  }
  void TearDown() override { MPI_Finalize(); }
};
const auto *const kMpi = testing::AddGlobalTestEnvironment(new MpiEnvironment);

using bdd::Edge;
using bdd::Level;
using Table = std::vector<bool>; // value of f for each assignment (bit l = level l)

constexpr unsigned kLevels = 6;
constexpr unsigned kRows = 1u << kLevels;

class Operations : public testing::TestWithParam<bdd::Access> {
protected:
  Operations()
      : table(MPI_COMM_WORLD, 8 << 20, 8, GetParam()), cache(MPI_COMM_WORLD, 4 << 20, GetParam()),
        m(table, cache) {}

  /// The BDD of a truth table over levels [level, kLevels).
  Edge from_table(const Table &t, Level level = 0, unsigned fixed = 0) {
    if (level == kLevels)
      return t[fixed] ? bdd::kTrue : bdd::kFalse;
    return m.make(level, from_table(t, level + 1, fixed),
                  from_table(t, level + 1, fixed | 1u << level));
  }

  bool evaluate(Edge e, unsigned row) {
    while (!bdd::is_constant(e)) {
      const bdd::Node n = table.node(bdd::index_of(e));
      e = bdd::complement_if((row >> n.level()) & 1 ? n.high() : n.low(), bdd::is_complemented(e));
    }
    return e == bdd::kTrue;
  }

  Table table_of(Edge e) {
    Table t(kRows);
    for (unsigned row = 0; row < kRows; ++row)
      t[row] = evaluate(e, row);
    return t;
  }

  Table random_table() {
    Table t(kRows);
    std::bernoulli_distribution coin(0.4);
    for (unsigned row = 0; row < kRows; ++row)
      t[row] = coin(random);
    return t;
  }

  bdd::NodeTable table;
  bdd::OperationCache cache;
  bdd::Manager m;
  std::mt19937 random{20261125};
};

TEST_P(Operations, BuildingIsCanonical) {
  for (int trial = 0; trial < 20; ++trial) {
    const Table t = random_table();
    const Edge f = from_table(t);
    EXPECT_EQ(table_of(f), t);
    EXPECT_EQ(from_table(t), f); // the same function is the same edge
    Table negated(kRows);
    for (unsigned row = 0; row < kRows; ++row)
      negated[row] = !t[row];
    EXPECT_EQ(from_table(negated), m.negate(f));
  }
}

TEST_P(Operations, AndOrIteDifference) {
  for (int trial = 0; trial < 30; ++trial) {
    const Table a = random_table(), b = random_table(), c = random_table();
    const Edge f = from_table(a), g = from_table(b), h = from_table(c);
    const Table t_and = table_of(m.apply_and(f, g)), t_or = table_of(m.apply_or(f, g)),
                t_ite = table_of(m.ite(f, g, h)), t_diff = table_of(m.difference(f, g));
    for (unsigned row = 0; row < kRows; ++row) {
      ASSERT_EQ(t_and[row], a[row] && b[row]);
      ASSERT_EQ(t_or[row], a[row] || b[row]);
      ASSERT_EQ(t_ite[row], a[row] ? b[row] : c[row]);
      ASSERT_EQ(t_diff[row], a[row] && !b[row]);
    }
    EXPECT_EQ(m.ite(f, g, h), from_table(t_ite));
  }
}

TEST_P(Operations, Exists) {
  for (int trial = 0; trial < 30; ++trial) {
    const Table a = random_table();
    std::vector<Level> quantified;
    for (Level l = 0; l < kLevels; ++l)
      if ((random() >> l) & 1)
        quantified.push_back(l);
    unsigned mask = 0;
    for (Level l : quantified)
      mask |= 1u << l;
    const Table result = table_of(m.exists(from_table(a), m.cube(quantified)));
    for (unsigned row = 0; row < kRows; ++row) {
      bool expected = false;
      for (unsigned sub = 0; sub < kRows; ++sub)
        if ((sub & ~mask) == 0)
          expected = expected || a[(row & ~mask) | sub];
      ASSERT_EQ(result[row], expected) << "row " << row << " mask " << mask;
    }
  }
}

/// relnext over three state bits (x_i at level 2i, x'_i at 2i+1); the
/// relation's domain is the bits in `domain`, the others keep their value.
TEST_P(Operations, RelNextAgainstSuccessorsByHand) {
  for (unsigned domain : {7u, 5u, 2u}) {
    for (int trial = 0; trial < 20; ++trial) {
      Table states = random_table(), relation = random_table();
      // States depend on x only, the relation only on its domain's levels.
      auto x_part = [](unsigned row) { return row & 0b010101u; };
      unsigned used = 0;
      std::vector<Level> variables;
      for (unsigned i = 0; i < 3; ++i)
        if ((domain >> i) & 1) {
          used |= 3u << (2 * i);
          variables.insert(variables.end(), {2 * i, 2 * i + 1});
        }
      for (unsigned row = 0; row < kRows; ++row) {
        states[row] = states[x_part(row)];
        relation[row] = relation[row & used];
      }
      const Table next =
          table_of(m.relnext(from_table(states), from_table(relation), m.cube(variables)));
      for (unsigned target = 0; target < kRows; ++target) {
        if (target != x_part(target))
          continue; // the result is over x levels
        bool expected = false;
        for (unsigned source = 0; source < kRows; ++source) {
          if (source != x_part(source) || !states[source])
            continue;
          // The pair (source, target): x = source's bits, x' = target's.
          unsigned row = source | (target << 1);
          bool identity_kept = true;
          for (unsigned i = 0; i < 3; ++i)
            if (!((domain >> i) & 1) && ((source >> (2 * i)) & 1) != ((target >> (2 * i)) & 1))
              identity_kept = false;
          expected = expected || (identity_kept && relation[row & used]);
        }
        ASSERT_EQ(next[target], expected) << "domain " << domain << " target " << target;
      }
    }
  }
}

/// A relation that also mentions a level outside its variables (here x'_2,
/// standing for an action label): relnext quantifies it. The thesis's
/// RelProd (Fig. 5.7, line 5) would keep it in the result.
TEST_P(Operations, RelNextQuantifiesLevelsOutsideTheGroup) {
  for (int trial = 0; trial < 20; ++trial) {
    Table states = random_table(), relation = random_table();
    auto x_part = [](unsigned row) { return row & 0b010101u; };
    const unsigned used = 0b100011u; // x_0, x'_0 and the label on level 5
    for (unsigned row = 0; row < kRows; ++row) {
      states[row] = states[x_part(row)];
      relation[row] = relation[row & used];
    }
    const std::vector<Level> group{0, 1};
    const Table next = table_of(m.relnext(from_table(states), from_table(relation), m.cube(group)));
    for (unsigned target = 0; target < kRows; ++target) {
      if (target != x_part(target))
        continue;
      bool expected = false;
      for (unsigned source = 0; source < kRows; ++source) {
        if (source != x_part(source) || !states[source] ||
            (source & 0b010100u) != (target & 0b010100u))
          continue; // bits 1 and 2 keep their values
        for (unsigned label = 0; label < 2; ++label)
          expected = expected || relation[(source & 1u) | ((target & 1u) << 1) | (label << 5)];
      }
      ASSERT_EQ(next[target], expected) << "target " << target;
    }
  }
}

TEST_P(Operations, CountAndNodes) {
  const std::vector<Level> all{0, 1, 2, 3, 4, 5};
  for (int trial = 0; trial < 30; ++trial) {
    const Table a = random_table();
    std::uint64_t expected = 0;
    for (bool v : a)
      expected += v;
    const Edge f = from_table(a);
    EXPECT_EQ(m.count(f, all).to_string(), std::to_string(expected));
    EXPECT_EQ(m.count(m.negate(f), all).to_string(), std::to_string(kRows - expected));
    EXPECT_EQ(m.node_count(f), m.node_count(m.negate(f)));
  }
  EXPECT_EQ(m.count(bdd::kTrue, all).to_string(), "64");
  EXPECT_EQ(m.node_count(m.variable(3)), 1u);
  EXPECT_THROW(m.count(m.variable(3), std::vector<Level>{0, 1}), std::invalid_argument);
}

/// The distinct nodes the roots reach, found without the collector's code.
std::set<std::uint64_t> nodes_reached(bdd::NodeTable &table, const std::vector<Edge> &roots) {
  std::set<std::uint64_t> seen;
  std::vector<Edge> todo(roots);
  while (!todo.empty()) {
    const std::uint64_t index = bdd::index_of(todo.back());
    todo.pop_back();
    if (index == 0 || !seen.insert(index).second)
      continue;
    const bdd::Node n = table.node(index);
    todo.insert(todo.end(), {n.low(), n.high()});
  }
  return seen;
}

/// A collection keeps exactly the nodes its roots reach, renumbered: the
/// roots still denote their functions, the table holds nothing else,
/// making a kept function again finds its nodes (the table is canonical
/// after renumbering), and no cached result names an old index.
TEST_P(Operations, CollectionKeepsExactlyWhatTheRootsReach) {
  bdd::GarbageCollector collector(MPI_COMM_WORLD, table, cache);
  std::vector<Table> kept;
  std::vector<Edge> roots;
  for (int trial = 0; trial < 40; ++trial) {
    const Table a = random_table(), b = random_table();
    const Edge f = from_table(a), g = from_table(b);
    m.apply_and(f, g); // garbage, and a cache entry naming it
    if (trial % 2 == 0) {
      Table negated(kRows);
      for (unsigned row = 0; row < kRows; ++row)
        negated[row] = !a[row];
      kept.push_back(negated);
      roots.push_back(m.negate(f)); // a complemented root
    }
  }
  // A cached result may name a node the collection frees or moves, so the
  // cache forgets everything.
  const Edge x = m.variable(3), y = m.variable(4);
  m.apply_and(x, y);
  ASSERT_TRUE(cache.find(bdd::Operation::And, std::min(x, y), std::max(x, y), 0));
  const std::set<std::uint64_t> before = nodes_reached(table, roots);
  collector.collect(roots);
  EXPECT_FALSE(cache.find(bdd::Operation::And, std::min(x, y), std::max(x, y), 0));

  EXPECT_EQ(collector.counters().collections, 1u);
  EXPECT_EQ(collector.counters().live, before.size());
  EXPECT_EQ(nodes_reached(table, roots).size(), before.size());
  EXPECT_EQ(table.local_nodes(), before.size()); // the dead nodes are gone
  for (std::size_t i = 0; i < roots.size(); ++i) {
    ASSERT_EQ(table_of(roots[i]), kept[i]) << "root " << i;
    ASSERT_EQ(from_table(kept[i]), roots[i]) << "root " << i;
  }
  for (std::size_t i = 0; i + 1 < roots.size(); ++i) {
    Table both(kRows);
    for (unsigned row = 0; row < kRows; ++row)
      both[row] = kept[i][row] && kept[i + 1][row];
    ASSERT_EQ(m.apply_and(roots[i], roots[i + 1]), from_table(both)) << "roots " << i;
  }
}

/// Collections are due once the nodes put since the last have used half of
/// the room it left; the table counts its nodes across collections.
TEST_P(Operations, CollectionIsDueAtHalfTheFreeRoom) {
  bdd::NodeTable small(MPI_COMM_WORLD, 24 * 4096, 8, GetParam());
  bdd::OperationCache small_cache(MPI_COMM_WORLD, 4096, GetParam());
  bdd::Manager mm(small, small_cache);
  bdd::GarbageCollector collector(MPI_COMM_WORLD, small, small_cache);
  Edge kept = bdd::kFalse;
  Level next = 0;
  while (!collector.due(small.nodes()))
    kept = mm.apply_or(kept, mm.variable(next++)); // about 2 nodes per step
  EXPECT_EQ(small.nodes(), small.local_nodes());
  EXPECT_GE(small.nodes(), small.capacity() / 2);
  std::vector<Edge> roots{kept};
  collector.collect(roots);
  EXPECT_EQ(small.nodes(), collector.counters().live);
  EXPECT_EQ(small.nodes(), small.local_nodes());
  EXPECT_EQ(mm.node_count(roots[0]), collector.counters().live);
  EXPECT_FALSE(collector.due(small.nodes()));
}

/// A node no BDD would contain but the table stores like any other: the
/// i-th of a test, distinct for distinct i.
bdd::Node synthetic(std::uint64_t i) {
  return bdd::Node::make(static_cast<Level>(i % 1000), (i * 2 + 2) & bdd::kIndexMask,
                         (i * 2 + 3) & bdd::kIndexMask);
}

/// A table made for few nodes uses few of its buckets, runs out of them
/// while it can still grow, and grows between phases: every node keeps its
/// index, is found there again, and the table holds nothing else.
TEST_P(Operations, GrowingKeepsEveryNodeAtItsIndex) {
  bdd::NodeTable sized(MPI_COMM_WORLD, 8 << 20, 8, GetParam(), 0);
  const std::uint64_t first = sized.buckets_in_use();
  ASSERT_LT(4 * first, sized.capacity());
  std::vector<std::uint64_t> index;
  auto fill = [&] {
    for (;;)
      index.push_back(sized.find_or_put(synthetic(index.size())));
  };
  EXPECT_THROW(fill(), bdd::TableFull);
  EXPECT_TRUE(sized.can_grow());
  EXPECT_GE(index.size(), first / 2);
  auto all_found = [&] {
    for (std::size_t i = 0; i < index.size(); ++i)
      if (sized.find_or_put(synthetic(i)) != index[i] || sized.node(index[i]) != synthetic(i))
        return false;
    return sized.local_nodes() == index.size() && sized.nodes() == index.size();
  };
  sized.grow();
  EXPECT_EQ(sized.buckets_in_use(), 4 * first);
  EXPECT_TRUE(all_found());
  const std::size_t before = index.size();
  for (std::size_t i = 0; i < before; ++i)
    index.push_back(sized.find_or_put(synthetic(index.size())));
  sized.fit(sized.capacity()); // as much as the budget has
  EXPECT_EQ(sized.buckets_in_use(), sized.capacity());
  EXPECT_FALSE(sized.can_grow());
  EXPECT_TRUE(all_found());
  sized.fit(0); // never shrinks
  EXPECT_EQ(sized.buckets_in_use(), sized.capacity());
}

/// A cache sized for fewer nodes uses fewer slots (a power of two, at least
/// kMinSlots, at most all) and still answers right.
TEST_P(Operations, CacheSizedToTheTable) {
  bdd::OperationCache big(MPI_COMM_WORLD, 64 << 20, GetParam());
  bdd::Manager mm(table, big);
  EXPECT_EQ(big.capacity(), (64u << 20) / bdd::OperationCache::kSlotBytes);
  big.size_for(1000);
  EXPECT_EQ(big.capacity(), bdd::OperationCache::kMinSlots);
  big.size_for(bdd::OperationCache::kNodesPerSlot * 100000);
  EXPECT_EQ(big.capacity(), 131072u); // the next power of two
  big.size_for(~0ull >> 8);
  EXPECT_EQ(big.capacity(), (64u << 20) / bdd::OperationCache::kSlotBytes);
  const Table a = random_table(), b = random_table();
  const Edge f = from_table(a), g = from_table(b);
  Table both(kRows);
  for (unsigned row = 0; row < kRows; ++row)
    both[row] = a[row] && b[row];
  const Edge fg = mm.apply_and(f, g);
  big.size_for(1000); // resized between operations: entries may be lost, never wrong
  EXPECT_EQ(mm.apply_and(f, g), fg);
  EXPECT_EQ(table_of(fg), both);
}

TEST_P(Operations, FullTableIsAnErrorNamingTheBudget) {
  bdd::NodeTable tiny(MPI_COMM_WORLD, 24 * 64, 8, GetParam());
  bdd::OperationCache small(MPI_COMM_WORLD, 4096, GetParam());
  bdd::Manager mm(tiny, small);
  try {
    Edge f = bdd::kFalse;
    for (Level l = 0; l < 1000; ++l)
      f = mm.apply_or(f, mm.variable(l));
    FAIL() << "64 buckets held 1000 variables";
  } catch (const bdd::TableFull &e) {
    EXPECT_NE(std::string(e.what()).find("--table-mib"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Access, Operations, testing::Values(bdd::Access::Shared, bdd::Access::Rma),
                         [](const auto &info) {
                           return std::string(bdd::access_name(info.param));
                         });

TEST(BigCount, ExactBeyond128Bits) {
  EXPECT_EQ(bdd::BigCount::power_of_two(200).to_string(),
            "1606938044258990275541962092341162602522202993782792835301376");
  EXPECT_EQ((bdd::BigCount::power_of_two(200) - bdd::BigCount(1)).to_string(),
            "1606938044258990275541962092341162602522202993782792835301375");
  EXPECT_EQ((bdd::BigCount(1000000000) + bdd::BigCount(0)).to_string(), "1000000000");
  EXPECT_EQ(bdd::BigCount().to_string(), "0");
}

} // namespace
