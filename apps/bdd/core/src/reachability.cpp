#include "bdd/reachability.hpp"
#include "bdd/choice.hpp"

#include <algorithm>
#include <exception>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace bdd {

Strategy parse_strategy(const std::string &text) {
  return parse_choice<Strategy>(
      "--strategy", text,
      {{"bfs", Strategy::Bfs}, {"chain", Strategy::Chain}, {"sat", Strategy::Saturation}});
}

namespace {

/// Runs `step` on every member, then agrees on whether all succeeded: a
/// member's failure must not leave the others waiting in a collective.
template <class Step> void agreed_step(MPI_Comm team, Step &&step) {
  std::exception_ptr failure;
  try {
    step();
  } catch (...) {
    failure = std::current_exception();
  }
  int rank = 0;
  MPI_Comm_rank(team, &rank);
  int mine = failure ? rank : -1, first = -1;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MAX, team);
  if (failure)
    std::rethrow_exception(failure);
  if (first >= 0)
    throw PeerFailed(first);
}

/// The new successors of `frontier` under this member's share of the groups.
Edge successors_of_share(Manager &m, const Model &model, Edge frontier, Edge visited, int member,
                         int members) {
  Edge result = kFalse;
  for (std::size_t g = static_cast<std::size_t>(member); g < model.groups.size();
       g += static_cast<std::size_t>(members)) {
    const Relation &r = model.groups[g];
    result =
        m.apply_or(result, m.difference(m.relnext(frontier, r.relation, r.variables), visited));
  }
  return result;
}

ReachResult breadth_first(Manager &m, const Model &model, MPI_Comm team,
                          const LevelReport &report) {
  int member = 0, members = 1;
  MPI_Comm_rank(team, &member);
  MPI_Comm_size(team, &members);
  ReachResult result;
  result.depth = 1; // level 0: the initial states
  Edge visited = model.initial, frontier = model.initial;
  for (;;) {
    Edge edges[2] = {frontier, visited};
    MPI_Bcast(edges, 2, MPI_UINT64_T, 0, team);
    Edge share = kFalse;
    agreed_step(
        team, [&] { share = successors_of_share(m, model, edges[0], edges[1], member, members); });
    std::vector<Edge> shares(static_cast<std::size_t>(members));
    MPI_Gather(&share, 1, MPI_UINT64_T, shares.data(), 1, MPI_UINT64_T, 0, team);
    int more = 0;
    agreed_step(team, [&] {
      if (member != 0)
        return;
      Edge next = kFalse;
      for (Edge s : shares)
        next = m.apply_or(next, s);
      if (next != kFalse) {
        visited = m.apply_or(visited, next);
        frontier = next;
        ++result.depth;
        if (report)
          report(result.depth - 1, visited);
        more = 1;
      }
    });
    MPI_Bcast(&more, 1, MPI_INT, 0, team);
    if (!more)
      break;
  }
  result.states = visited;
  return result;
}

ReachResult chained(Manager &m, const std::vector<Relation> &groups, Edge initial,
                    const LevelReport &report) {
  ReachResult result;
  Edge visited = initial;
  for (;;) {
    const Edge before = visited;
    for (const Relation &r : groups)
      visited = m.apply_or(visited, m.relnext(visited, r.relation, r.variables));
    if (visited == before)
      break;
    ++result.depth;
    if (report)
      report(result.depth, visited);
  }
  result.states = visited;
  return result;
}

/// Saturation after Sylvan's bddmc go_sat: `groups` sorted by top level.
class Saturation {
public:
  Saturation(Manager &m, std::vector<Relation> groups) : m_(m), groups_(std::move(groups)) {}

  Edge saturate(Edge set, std::size_t first) {
    // Terminal cases.
    if (set == kFalse || first == groups_.size())
      return set;
    // Cache lookup (the group index stands in the second operand).
    const Edge input = set;
    if (auto hit = m_.cache().find(Operation::Saturate, input, first, 0))
      return *hit;
    Edge result;
    const Level top = groups_[first].top;
    if (set == kTrue || top <= m_.level(set)) {
      // The groups starting at `top` apply here: to a fixpoint, saturate
      // below them, then apply each once.
      std::size_t end = first;
      while (end < groups_.size() && groups_[end].top == top)
        ++end;
      Edge previous;
      do {
        previous = set;
        set = saturate(set, end);
        for (std::size_t g = first; g < end; ++g)
          set = m_.apply_or(set, m_.relnext(set, groups_[g].relation, groups_[g].variables));
      } while (set != previous);
      result = set;
    } else {
      // Recursion below the set's top, then make node.
      const Level level = m_.level(set);
      const Cofactors c = m_.cofactors_at(set, level);
      result = m_.make(level, saturate(c.low, first), saturate(c.high, first));
    }
    // Cache store.
    m_.cache().store(Operation::Saturate, input, first, 0, result);
    return result;
  }

private:
  Manager &m_;
  std::vector<Relation> groups_;
};

} // namespace

ReachResult reach(Manager &manager, const Model &model, Strategy strategy, MPI_Comm team,
                  const LevelReport &report, WorkStealing *stealing) {
  if (strategy == Strategy::Bfs)
    return breadth_first(manager, model, team, report);
  int member = 0;
  MPI_Comm_rank(team, &member);
  ReachResult result;
  // Both go top-down through the groups, as Sylvan's bddmc does.
  std::vector<Relation> groups = model.groups;
  std::stable_sort(groups.begin(), groups.end(),
                   [](const Relation &a, const Relation &b) { return a.top < b.top; });
  auto compute = [&]() -> Edge {
    if (strategy == Strategy::Chain)
      result = chained(manager, groups, model.initial, report);
    else
      result.states = Saturation(manager, groups).saturate(model.initial, 0);
    return result.states;
  };
  agreed_step(team, [&] {
    if (stealing) {
      manager.set_work_stealing(stealing);
      try {
        stealing->run(compute);
      } catch (...) {
        manager.set_work_stealing(nullptr);
        throw;
      }
      manager.set_work_stealing(nullptr);
    } else if (member == 0) {
      compute();
    }
  });
  return result;
}

} // namespace bdd
