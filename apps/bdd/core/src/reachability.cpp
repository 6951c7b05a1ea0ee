#include "bdd/reachability.hpp"
#include "bdd/choice.hpp"
#include "bdd/team.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <span>
#include <utility>
#include <vector>

namespace bdd {

Strategy parse_strategy(const std::string &text) {
  return parse_choice<Strategy>(
      "--strategy", text,
      {{"bfs", Strategy::Bfs}, {"chain", Strategy::Chain}, {"sat", Strategy::Saturation}});
}

namespace {

/// Collects garbage with the model's edges and `sets` as the roots, and
/// renumbers them all.
void collect(GarbageCollector &collector, Model &model, std::span<Edge> sets) {
  std::vector<Edge> roots{model.initial};
  for (const Relation &r : model.groups)
    roots.insert(roots.end(), {r.relation, r.variables});
  roots.insert(roots.end(), sets.begin(), sets.end());
  collector.collect(roots);
  auto at = roots.begin();
  model.initial = *at++;
  for (Relation &r : model.groups) {
    r.relation = *at++;
    r.variables = *at++;
  }
  std::copy(at, roots.end(), sets.begin());
}

/// The levels of BFS and the sweeps of chaining: `step` computes a level
/// from `sets` (member 0's are the truth) and says whether it found
/// anything. Before each level the team collects garbage if it is due,
/// grows the table's buckets to the nodes in it, and sizes the operation
/// cache to them: a table or a cache far larger than the work misses the
/// CPU's caches on every probe. A level that runs out of table
/// (StepEnd::TableFull) is run again from the same sets after the table
/// grew, or, at its budget, after a collection, unless one just ran: then
/// TableFull is the answer.
template <class Step>
void level_by_level(Manager &m, MPI_Comm team, GarbageCollector *collector, Model &model,
                    std::span<Edge> sets, Step &&step) {
  NodeTable &table = m.table();
  bool just_collected = false;
  for (;;) {
    const std::uint64_t nodes = table.nodes();
    if (collector && !just_collected && collector->due(nodes)) {
      collect(*collector, model, sets);
      just_collected = true;
      continue;
    }
    table.fit(nodes);
    m.cache().size_for(nodes);
    MPI_Bcast(sets.data(), static_cast<int>(sets.size()), MPI_UINT64_T, 0, team);
    int found = 0;
    const bool can_collect = collector && !just_collected;
    if (step(found, table.can_grow() || can_collect) == StepEnd::TableFull) {
      if (table.can_grow()) {
        table.grow();
      } else {
        collect(*collector, model, sets);
        just_collected = true;
      }
      continue;
    }
    MPI_Bcast(&found, 1, MPI_INT, 0, team);
    if (!found)
      return;
    just_collected = false;
  }
}

/// Member 0 runs `compute`; with `stealing`, the other members steal its
/// subtasks meanwhile. The result is member 0's.
Edge led_by_member_0(Manager &m, WorkStealing *stealing, int member,
                     const std::function<Edge()> &compute) {
  if (!stealing)
    return member == 0 ? compute() : kFalse;
  m.set_work_stealing(stealing);
  try {
    const Edge result = stealing->run(compute);
    m.set_work_stealing(nullptr);
    return result;
  } catch (...) {
    m.set_work_stealing(nullptr);
    throw;
  }
}

/// The union of `parts`, as a tree of ors whose every round runs as tasks
/// the threads steal from each other (an or is a complemented and).
Edge union_in_parallel(Manager &m, std::vector<Edge> parts) {
  std::vector<Task> pairs;
  while (parts.size() > 1) {
    pairs.clear();
    for (std::size_t i = 0; i + 1 < parts.size(); i += 2)
      pairs.push_back({Operation::And, complement(parts[i]), complement(parts[i + 1]), 0});
    std::vector<Edge> joined(pairs.size());
    m.run_all(pairs, joined);
    for (Edge &e : joined)
      e = complement(e);
    if (parts.size() % 2 == 1)
      joined.push_back(parts.back());
    parts = std::move(joined);
  }
  return parts.empty() ? kFalse : parts.front();
}

/// The new successors of `frontier` under this member's share of the groups.
/// With threads, the share's relnexts, then their differences with
/// `visited`, then the unions of those are tasks the threads steal from
/// each other, each with its own recursion to steal from (Sylvan's `par`,
/// which runs every group's product and difference as one task and unites
/// them in a tree).
Edge successors_of_share(Manager &m, const Model &model, Edge frontier, Edge visited, int member,
                         int members, bool threads) {
  if (threads) {
    std::vector<Task> tasks;
    for (std::size_t g = static_cast<std::size_t>(member); g < model.groups.size();
         g += static_cast<std::size_t>(members))
      tasks.push_back(
          {Operation::RelNext, frontier, model.groups[g].relation, model.groups[g].variables});
    std::vector<Edge> parts(tasks.size());
    m.run_all(tasks, parts);
    for (std::size_t i = 0; i < tasks.size(); ++i)
      tasks[i] = {Operation::And, parts[i], complement(visited), 0};
    m.run_all(tasks, parts);
    return union_in_parallel(m, std::move(parts));
  }
  Edge result = kFalse;
  for (std::size_t g = static_cast<std::size_t>(member); g < model.groups.size();
       g += static_cast<std::size_t>(members)) {
    const Relation &r = model.groups[g];
    result =
        m.apply_or(result, m.difference(m.relnext(frontier, r.relation, r.variables), visited));
  }
  return result;
}

ReachResult breadth_first(Manager &m, Model &model, MPI_Comm team, const LevelReport &report,
                          GarbageCollector *collector, ThreadTeam *threads) {
  int member = 0, members = 1;
  MPI_Comm_rank(team, &member);
  MPI_Comm_size(team, &members);
  ReachResult result;
  result.depth = 1;                              // level 0: the initial states
  Edge sets[2] = {model.initial, model.initial}; // frontier, visited
  Edge &frontier = sets[0], &visited = sets[1];
  level_by_level(m, team, collector, model, sets, [&](int &found, bool retry_if_full) {
    Edge share = kFalse;
    StepEnd end = agreed_step(
        team,
        [&] {
          with_threads(threads, [&] {
            share = successors_of_share(m, model, frontier, visited, member, members,
                                        threads != nullptr);
          });
        },
        retry_if_full);
    if (end == StepEnd::TableFull)
      return end;
    std::vector<Edge> shares(static_cast<std::size_t>(members));
    MPI_Gather(&share, 1, MPI_UINT64_T, shares.data(), 1, MPI_UINT64_T, 0, team);
    // Member 0 unites the shares; the sets change only once all is done,
    // so that a level that runs out of table can run again.
    return agreed_step(
        team,
        [&] {
          if (member != 0)
            return;
          Edge next = kFalse;
          with_threads(threads, [&] {
            for (Edge s : shares)
              next = m.apply_or(next, s);
            if (next != kFalse)
              visited = m.apply_or(visited, next);
          });
          if (next == kFalse)
            return;
          frontier = next;
          found = 1;
          ++result.depth;
          if (report)
            report(result.depth - 1, visited);
        },
        retry_if_full);
  });
  result.states = visited;
  return result;
}

/// Chaining: each sweep applies every group in turn to all states found so
/// far.
ReachResult chained(Manager &m, Model &model, MPI_Comm team, const LevelReport &report,
                    GarbageCollector *collector, WorkStealing *stealing, ThreadTeam *threads) {
  int member = 0;
  MPI_Comm_rank(team, &member);
  ReachResult result;
  Edge visited[1] = {model.initial};
  level_by_level(m, team, collector, model, visited, [&](int &found, bool retry_if_full) {
    Edge swept = kFalse;
    const StepEnd end = agreed_step(
        team,
        [&] {
          swept = led_by_member_0(m, stealing, member, [&] {
            Edge states = visited[0];
            with_threads(threads, [&] {
              for (const Relation &r : model.groups)
                states = m.apply_or(states, m.relnext(states, r.relation, r.variables));
            });
            return states;
          });
        },
        retry_if_full);
    if (end == StepEnd::Done && member == 0 && swept != visited[0]) {
      visited[0] = swept;
      found = 1;
      ++result.depth;
      if (report)
        report(result.depth, visited[0]);
    }
    return end;
  });
  result.states = visited[0];
  return result;
}

/// Saturation after Sylvan's bddmc go_sat: `groups` sorted by top level.
/// Every call takes the Manager of the thread that runs it: with threads,
/// the two halves of a node below the groups' top are tasks
/// (Operation::Saturate, the group index in the second operand) that any
/// thread may run.
class Saturation {
public:
  Saturation(std::vector<Relation> groups, bool threads)
      : groups_(std::move(groups)), threads_(threads) {}

  Edge saturate(Manager &m, Edge set, std::size_t first) {
    // Terminal cases.
    if (set == kFalse || first == groups_.size())
      return set;
    // Cache lookup (the group index stands in the second operand).
    const Edge input = set;
    if (auto hit = m.cached(Operation::Saturate, input, first, 0))
      return *hit;
    Edge result;
    const Level top = groups_[first].top;
    if (set == kTrue || top <= m.level(set)) {
      // The groups starting at `top` apply here: to a fixpoint, saturate
      // below them, then apply each once.
      std::size_t end = first;
      while (end < groups_.size() && groups_[end].top == top)
        ++end;
      Edge previous;
      do {
        previous = set;
        set = saturate(m, set, end);
        for (std::size_t g = first; g < end; ++g)
          set = m.apply_or(set, m.relnext(set, groups_[g].relation, groups_[g].variables));
      } while (set != previous);
      result = set;
    } else if (threads_) {
      // Recursion below the set's top, both halves at once, then make node.
      const Level level = m.level(set);
      const Cofactors c = m.cofactors_at(set, level);
      const std::array<Task, 2> halves{Task{Operation::Saturate, c.low, first, 0},
                                       Task{Operation::Saturate, c.high, first, 0}};
      std::array<Edge, 2> saturated{};
      m.run_all(halves, saturated);
      result = m.make(level, saturated[0], saturated[1]);
    } else {
      // Recursion below the set's top, then make node.
      const Level level = m.level(set);
      const Cofactors c = m.cofactors_at(set, level);
      result = m.make(level, saturate(m, c.low, first), saturate(m, c.high, first));
    }
    // Cache store.
    m.remember(Operation::Saturate, input, first, 0, result);
    return result;
  }

private:
  std::vector<Relation> groups_;
  bool threads_;
};

} // namespace

ReachResult reach(Manager &manager, Model model, Strategy strategy, MPI_Comm team,
                  const LevelReport &report, GarbageCollector *collector, WorkStealing *stealing,
                  ThreadTeam *threads) {
  if (strategy == Strategy::Bfs)
    return breadth_first(manager, model, team, report, collector, threads);
  // Both go top-down through the groups, as Sylvan's bddmc does.
  std::stable_sort(model.groups.begin(), model.groups.end(),
                   [](const Relation &a, const Relation &b) { return a.top < b.top; });
  if (strategy == Strategy::Chain)
    return chained(manager, model, team, report, collector, stealing, threads);
  int member = 0;
  MPI_Comm_rank(team, &member);
  ReachResult result;
  agreed_step(team, [&] {
    result.states = led_by_member_0(manager, stealing, member, [&] {
      Saturation saturation(model.groups, threads != nullptr);
      if (!threads)
        return saturation.saturate(manager, model.initial, 0);
      // The threads' Managers run the halves they steal.
      const Manager::Extension extension = [&](Manager &m, const Task &t) {
        return saturation.saturate(m, t.a, t.b);
      };
      threads->set_extension(&extension);
      Edge states = kFalse;
      try {
        threads->run([&] { states = saturation.saturate(manager, model.initial, 0); });
      } catch (...) {
        threads->set_extension(nullptr);
        throw;
      }
      threads->set_extension(nullptr);
      return states;
    });
  });
  return result;
}

} // namespace bdd
