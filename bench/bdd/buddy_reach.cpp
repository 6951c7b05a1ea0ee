// The BuDDy baseline of bench/bdd: the same model file, read by bdd_core's
// parser, the same interleaved variable order and the same breadth-first
// search (successors of the frontier under each group, minus the visited
// states), in BuDDy. Prints the states and the time of the search.
#include "plain_model.hpp"

#include <bdd.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <vector>

namespace {

/// BuDDy needs dense variable numbers: levels of the file (LTSmin's action
/// labels among them) keep their order.
struct Variables {
  std::map<unsigned, int> index;
  int of(unsigned level) const { return index.at(level); }
};

Variables number_levels(const PlainModel &file) {
  Variables v;
  std::vector<unsigned> levels;
  for (const PlainNode &n : file.nodes)
    levels.push_back(n.level);
  for (const PlainGroup &g : file.groups)
    levels.insert(levels.end(), g.variables.begin(), g.variables.end());
  levels.insert(levels.end(), file.state_variables.begin(), file.state_variables.end());
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  for (std::size_t i = 0; i < levels.size(); ++i)
    v.index[levels[i]] = static_cast<int>(i);
  return v;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    fmt::print(stderr, "usage: buddy-reach MODEL.bdd\n");
    return 2;
  }
  try {
    const PlainModel file = read_plain_model(argv[1]);
    const Variables vars = number_levels(file);
    // BuDDy grows its node table as needed; start where it starts in the
    // examples of its manual, with a cache a tenth of the table.
    bdd_init(1000000, 100000);
    bdd_setcacheratio(10);
    bdd_setmaxincrease(5000000);
    bdd_setvarnum(static_cast<int>(vars.index.size()));
    bdd_gbc_hook(nullptr);

    const auto start_load = std::chrono::steady_clock::now();
    std::vector<bdd> nodes(file.nodes.size() + 1);
    nodes[0] = bdd_false();
    auto edge = [&](std::uint64_t e) {
      const bdd &n = nodes[e & ~(1ull << 63)];
      return (e >> 63) ? bdd_not(n) : n;
    };
    for (std::size_t i = 0; i < file.nodes.size(); ++i) {
      const PlainNode &n = file.nodes[i];
      nodes[i + 1] = bdd_ite(bdd_ithvar(vars.of(n.level)), edge(n.high), edge(n.low));
    }
    const bdd initial = edge(file.initial);
    struct Group {
      bdd relation, quantified;
      bddPair *primed_to_state;
    };
    std::vector<Group> groups;
    for (const PlainGroup &g : file.groups) {
      Group group{edge(g.relation), bdd_true(), bdd_newpair()};
      // Quantify the group's x levels and every level that is neither a
      // state bit nor a next-state bit (action labels), then rename x' to x.
      for (const auto &[level, index] : vars.index) {
        const bool state =
            std::binary_search(file.state_variables.begin(), file.state_variables.end(), level);
        const bool in_group = std::binary_search(g.variables.begin(), g.variables.end(), level);
        const bool primed =
            (level & 1) &&
            std::binary_search(file.state_variables.begin(), file.state_variables.end(), level - 1);
        if ((state && in_group) || (!state && !primed))
          group.quantified &= bdd_ithvar(index);
        if (primed && in_group)
          bdd_setpair(group.primed_to_state, index, vars.of(level - 1));
      }
      groups.push_back(group);
    }
    nodes.clear();
    const double load =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_load).count();

    const auto start = std::chrono::steady_clock::now();
    bdd visited = initial, frontier = initial;
    unsigned depth = 1;
    for (;;) {
      bdd next = bdd_false();
      for (const Group &g : groups)
        next |= bdd_replace(bdd_relprod(frontier, g.relation, g.quantified), g.primed_to_state) -
                visited;
      if (next == bdd_false())
        break;
      visited |= next;
      frontier = next;
      ++depth;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    bdd state_set = bdd_true();
    for (unsigned l : file.state_variables)
      state_set &= bdd_ithvar(vars.of(l));
    fmt::print("states: {:.0f}\nnodes: {}\ndepth: {}\ntime: {:.3f} s\nload: {:.3f} s\n",
               bdd_satcountset(visited, state_set), bdd_nodecount(visited), depth, seconds, load);
    bdd_done();
    return 0;
  } catch (const std::exception &e) {
    fmt::print(stderr, "buddy-reach: {}\n", e.what());
    return 1;
  }
}
