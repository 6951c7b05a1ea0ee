#include "bdd/manager.hpp"

#include <algorithm>
#include <array>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace bdd {

Edge Manager::make(Level level, Edge low, Edge high) {
  if (low == high)
    return low;
  // Canonical form: the low edge is regular; a complemented low edge moves
  // the complement to the edge that points here.
  const bool flip = is_complemented(low);
  const Node node = Node::make(level, regular(low), complement_if(high, flip));
  const std::uint64_t index =
      own_ ? table_.find_or_put(node, own_->table) : table_.find_or_put(node);
  return complement_if(index, flip);
}

Edge Manager::cube(std::span<const Level> levels) {
  std::vector<Level> sorted(levels.begin(), levels.end());
  std::sort(sorted.begin(), sorted.end());
  Edge result = kTrue;
  for (auto it = sorted.rbegin(); it != sorted.rend(); ++it)
    result = make(*it, kFalse, result);
  return result;
}

Cofactors Manager::cofactors_at(Edge e, Level at) {
  if (is_constant(e))
    return {e, e};
  const Node n = table_.node(index_of(e));
  if (n.level() != at)
    return {e, e};
  return cofactors(e, n);
}

Edge Manager::run(const Task &task) {
  switch (task.op) {
  case Operation::RelNext:
    return relnext(task.a, task.b, task.c);
  case Operation::And:
    return apply_and(task.a, task.b);
  case Operation::Ite:
    return ite(task.a, task.b, task.c);
  case Operation::Exists:
    return exists(task.a, task.b);
  case Operation::Saturate:
    if (extension_)
      return (*extension_)(*this, task);
    [[fallthrough]];
  default:
    throw std::invalid_argument("no task for operation " +
                                std::to_string(static_cast<unsigned>(task.op)));
  }
}

Edge Manager::run_stolen(const Task &task, unsigned depth) {
  // The thief continues the spawner's nesting, so the cut-off holds
  // whichever thread runs a call; a leapfrogging thread returns to its own.
  const unsigned outer = depth_;
  depth_ = depth;
  try {
    const Edge result = run(task);
    depth_ = outer;
    return result;
  } catch (...) {
    depth_ = outer;
    throw;
  }
}

bool Manager::trivial(const Task &t) {
  // The terminal cases of each operation, or most of them: a stolen task
  // that returns at once costs its owner the slot's cache line twice.
  switch (t.op) {
  case Operation::And:
    return is_constant(t.a) || is_constant(t.b) || regular(t.a) == regular(t.b);
  case Operation::Ite:
    return is_constant(t.a) || t.b == t.c;
  case Operation::Exists:
    return is_constant(t.a) || t.b == kTrue;
  case Operation::RelNext:
    return t.a == kFalse || t.b == kFalse || t.c == kTrue || (t.a == kTrue && t.b == kTrue);
  default:
    return false;
  }
}

template <class Here>
Edge Manager::fork(std::span<const Task> tasks, std::span<Edge> results, std::span<bool> spawned,
                   Here &&here) {
  ++depth_;
  for (std::size_t i = 0; i < tasks.size(); ++i)
    spawned[i] = !trivial(tasks[i]) && pool_->spawn(worker_, tasks[i], depth_);
  std::exception_ptr failure;
  Edge mine = kFalse;
  try {
    mine = here();
  } catch (...) {
    failure = std::current_exception();
  }
  // Newest first, as the deque gives them back. After a failure every task
  // is still synced (a thief may be running it) but none is run here.
  for (std::size_t i = tasks.size(); i-- > 0;) {
    try {
      const std::optional<Edge> stolen = spawned[i] ? pool_->sync(worker_) : std::nullopt;
      if (stolen)
        results[i] = *stolen;
      else if (!failure)
        results[i] = run(tasks[i]);
    } catch (...) {
      if (!failure)
        failure = std::current_exception();
    }
  }
  --depth_;
  if (failure)
    std::rethrow_exception(failure);
  return mine;
}

template <std::size_t N, class Here>
Edge Manager::fork(const std::array<Task, N> &tasks, std::array<Edge, N> &results, Here &&here) {
  std::array<bool, N> spawned{};
  return fork(std::span<const Task>(tasks), std::span<Edge>(results), std::span<bool>(spawned),
              here);
}

template <class First, class Second>
std::pair<Edge, Edge> Manager::both(First &&first, const Task &second_task, Second &&second) {
  if (!forking()) {
    const Edge here = first();
    return {here, second()};
  }
  std::array<Edge, 1> spawned{};
  const Edge here = fork(std::array{second_task}, spawned, first);
  return {here, spawned[0]};
}

void Manager::run_all(std::span<const Task> tasks, std::span<Edge> results) {
  if (tasks.empty())
    return;
  if (!forking()) {
    for (std::size_t i = 0; i < tasks.size(); ++i)
      results[i] = run(tasks[i]);
    return;
  }
  const std::size_t n = tasks.size() - 1;
  auto last = [&] { return run(tasks[n]); };
  if (n <= 3) { // the common case, no allocation
    std::array<bool, 3> spawned{};
    results[n] = fork(tasks.first(n), results.first(n), std::span<bool>(spawned).first(n), last);
    return;
  }
  const std::unique_ptr<bool[]> spawned(new bool[n]());
  results[n] = fork(tasks.first(n), results.first(n), std::span<bool>(spawned.get(), n), last);
}

Edge Manager::apply_and(Edge f, Edge g) {
  // Terminal cases.
  if (f == kFalse || g == kFalse || f == complement(g))
    return kFalse;
  if (f == kTrue || f == g)
    return g;
  if (g == kTrue)
    return f;
  if (f > g)
    std::swap(f, g); // commutative: one cache key for both orders
  // Cache lookup.
  if (auto hit = cached(Operation::And, f, g, 0))
    return *hit;
  if (stealing_)
    stealing_->poll();
  // Recursion.
  const Level top = std::min(level(f), level(g));
  const Cofactors fc = cofactors_at(f, top), gc = cofactors_at(g, top);
  const auto [low, high] =
      both([&] { return apply_and(fc.low, gc.low); }, Task{Operation::And, fc.high, gc.high, 0},
           [&] { return apply_and(fc.high, gc.high); });
  // Make node, cache store.
  const Edge result = make(top, low, high);
  remember(Operation::And, f, g, 0, result);
  return result;
}

Edge Manager::ite(Edge f, Edge g, Edge h) {
  // Terminal cases.
  if (f == kTrue)
    return g;
  if (f == kFalse)
    return h;
  if (g == h)
    return g;
  if (g == kTrue && h == kFalse)
    return f;
  if (g == kFalse && h == kTrue)
    return complement(f);
  if (g == f || g == kTrue)
    return apply_or(f, h);
  if (h == complement(f) || h == kTrue)
    return apply_or(complement(f), g);
  if (h == f || h == kFalse)
    return apply_and(f, g);
  if (g == complement(f) || g == kFalse)
    return apply_and(complement(f), h);
  // Normal form: f regular, g regular (complementing the result if needed).
  if (is_complemented(f)) {
    f = complement(f);
    std::swap(g, h);
  }
  const bool flip = is_complemented(g);
  if (flip) {
    g = complement(g);
    h = complement(h);
  }
  // Cache lookup.
  if (auto hit = cached(Operation::Ite, f, g, h))
    return complement_if(*hit, flip);
  // Recursion.
  const Level top = std::min({level(f), level(g), level(h)});
  const Cofactors fc = cofactors_at(f, top), gc = cofactors_at(g, top), hc = cofactors_at(h, top);
  const auto [low, high] = both([&] { return ite(fc.low, gc.low, hc.low); },
                                Task{Operation::Ite, fc.high, gc.high, hc.high},
                                [&] { return ite(fc.high, gc.high, hc.high); });
  // Make node, cache store.
  const Edge result = make(top, low, high);
  remember(Operation::Ite, f, g, h, result);
  return complement_if(result, flip);
}

Edge Manager::exists(Edge f, Edge variables) {
  // Terminal cases; quantified levels above f's top do not matter.
  if (is_constant(f))
    return f;
  const Level top = level(f);
  while (!is_constant(variables) && level(variables) < top)
    variables = cofactors_at(variables, level(variables)).high;
  if (variables == kTrue)
    return f;
  // Cache lookup.
  if (auto hit = cached(Operation::Exists, f, variables, 0))
    return *hit;
  // Recursion.
  const Cofactors fc = cofactors_at(f, top);
  Edge result;
  if (forking()) {
    // Both cofactors at once, as Sylvan does; the sequential branch below
    // skips the high one when the low one is true.
    const bool quantified = level(variables) == top;
    const Edge rest = quantified ? cofactors_at(variables, top).high : variables;
    std::array<Edge, 1> spawned{};
    const Edge low = fork(std::array{Task{Operation::Exists, fc.high, rest, 0}}, spawned,
                          [&] { return exists(fc.low, rest); });
    result = quantified ? apply_or(low, spawned[0]) : make(top, low, spawned[0]);
  } else if (level(variables) == top) {
    const Edge rest = cofactors_at(variables, top).high;
    const Edge low = exists(fc.low, rest);
    result = low == kTrue ? kTrue : apply_or(low, exists(fc.high, rest));
  } else {
    // Make node.
    result = make(top, exists(fc.low, variables), exists(fc.high, variables));
  }
  // Cache store.
  remember(Operation::Exists, f, variables, 0, result);
  return result;
}

Edge Manager::relnext(Edge states, Edge relation, Edge variables) {
  // Terminal cases. Levels of the relation outside `variables` (LTSmin's
  // action labels, say) are quantified: once no variable is left, a
  // relation other than false relates every remaining state to itself.
  if (states == kFalse || relation == kFalse)
    return kFalse;
  if (variables == kTrue || (states == kTrue && relation == kTrue))
    return states;
  const Level top = std::min(level(states), level(relation));
  const Level pair = top & ~Level{1}; // x of (x, x')
  while (!is_constant(variables) && level(variables) < pair)
    variables = cofactors_at(variables, level(variables)).high;
  if (variables == kTrue)
    return states;
  // Cache lookup.
  if (auto hit = cached(Operation::RelNext, states, relation, variables))
    return *hit;
  // Recursion.
  Edge result;
  if ((level(variables) & ~Level{1}) == pair) {
    // x is in the relation's domain: x' of the relation becomes x of the
    // result. r_ab is the relation's cofactor for x = a, x' = b.
    Edge rest = variables;
    while (!is_constant(rest) && (level(rest) & ~Level{1}) == pair)
      rest = cofactors_at(rest, level(rest)).high;
    const Cofactors s = cofactors_at(states, pair);
    const Cofactors r = cofactors_at(relation, pair);
    const Cofactors r0 = cofactors_at(r.low, pair + 1), r1 = cofactors_at(r.high, pair + 1);
    Edge e00, e10, e01, e11;
    if (stealing_ && spawn_depth_ < kSpawnDepth) {
      // Three of the four products may run on other members. Only near the
      // top of the recursion: deeper tasks are too small to pay for a steal.
      ++spawn_depth_;
      stealing_->spawn({Operation::RelNext, s.low, r0.low, rest});
      stealing_->spawn({Operation::RelNext, s.high, r1.low, rest});
      stealing_->spawn({Operation::RelNext, s.low, r0.high, rest});
      e11 = relnext(s.high, r1.high, rest);
      e01 = stealing_->sync();
      e10 = stealing_->sync();
      e00 = stealing_->sync();
      --spawn_depth_;
    } else if (forking()) {
      std::array<Edge, 3> spawned{};
      e11 = fork(std::array{Task{Operation::RelNext, s.low, r0.low, rest},
                            Task{Operation::RelNext, s.high, r1.low, rest},
                            Task{Operation::RelNext, s.low, r0.high, rest}},
                 spawned, [&] { return relnext(s.high, r1.high, rest); });
      e00 = spawned[0];
      e10 = spawned[1];
      e01 = spawned[2];
    } else {
      e00 = relnext(s.low, r0.low, rest);
      e10 = relnext(s.high, r1.low, rest);
      e01 = relnext(s.low, r0.high, rest);
      e11 = relnext(s.high, r1.high, rest);
    }
    // The two unions in parallel too (an or is a complemented and).
    const auto [low, high_complement] =
        both([&] { return apply_or(e00, e10); },
             Task{Operation::And, complement(e01), complement(e11), 0},
             [&] { return apply_and(complement(e01), complement(e11)); });
    const Edge high = complement(high_complement);
    // Make node.
    result = make(pair, low, high);
  } else {
    // Not in the domain: the state keeps its value on `top`, and the
    // relation's own dependence on it is quantified.
    const Cofactors s = cofactors_at(states, top);
    const Cofactors r = cofactors_at(relation, top);
    auto either = [&](Edge part) {
      return r.low == r.high
                 ? relnext(part, r.low, variables)
                 : apply_or(relnext(part, r.low, variables), relnext(part, r.high, variables));
    };
    if (forking() && (s.low != s.high || r.low != r.high)) {
      // The up to four products of a state cofactor and a relation
      // cofactor in parallel: (s.low, r.low) here, the others spawned.
      const bool split = r.low != r.high;
      std::array<Edge, 3> spawned{kFalse, kFalse, kFalse};
      std::array<Task, 3> tasks{Task{Operation::RelNext, s.low, r.high, variables},
                                Task{Operation::RelNext, s.high, r.low, variables},
                                Task{Operation::RelNext, s.high, r.high, variables}};
      auto here = [&] { return relnext(s.low, r.low, variables); };
      if (s.low == s.high) {
        std::array<Edge, 1> high_part{};
        result = apply_or(fork(std::array{tasks[0]}, high_part, here), high_part[0]);
      } else if (!split) {
        std::array<Edge, 1> high_part{};
        const Edge low = fork(std::array{tasks[1]}, high_part, here);
        result = make(top, low, high_part[0]);
      } else {
        const Edge low = fork(tasks, spawned, here);
        result = make(top, apply_or(low, spawned[0]), apply_or(spawned[1], spawned[2]));
      }
    } else if (s.low == s.high) {
      result = either(s.low);
    } else { // make node
      result = make(top, either(s.low), either(s.high));
    }
  }
  // Cache store.
  remember(Operation::RelNext, states, relation, variables, result);
  return result;
}

BigCount Manager::count(Edge f, std::span<const Level> variables) {
  const unsigned n = static_cast<unsigned>(variables.size());
  auto position = [&](Level l) -> unsigned {
    if (l == kTerminalLevel)
      return n;
    auto it = std::lower_bound(variables.begin(), variables.end(), l);
    if (it == variables.end() || *it != l)
      throw std::invalid_argument("the set depends on level " + std::to_string(l) +
                                  ", which is not one of its variables");
    return static_cast<unsigned>(it - variables.begin());
  };
  // Models of a regular node over the variables from its own level down.
  std::unordered_map<std::uint64_t, BigCount> memo;
  auto models = [&](auto &&self, Edge e, unsigned from) -> BigCount {
    if (e == kFalse)
      return BigCount();
    if (e == kTrue)
      return BigCount::power_of_two(n - from);
    const unsigned at = position(level(e));
    auto it = memo.find(index_of(e));
    if (it == memo.end()) {
      const Node node = table_.node(index_of(e));
      BigCount sum = self(self, node.low(), at + 1) + self(self, node.high(), at + 1);
      it = memo.emplace(index_of(e), std::move(sum)).first;
    }
    BigCount result = is_complemented(e) ? BigCount::power_of_two(n - at) - it->second : it->second;
    return result << (at - from);
  };
  return models(models, f, 0);
}

std::uint64_t Manager::node_count(Edge f) {
  std::unordered_set<std::uint64_t> seen;
  std::vector<std::uint64_t> stack;
  if (!is_constant(f))
    stack.push_back(index_of(f));
  while (!stack.empty()) {
    const std::uint64_t i = stack.back();
    stack.pop_back();
    if (!seen.insert(i).second)
      continue;
    const Node n = table_.node(i);
    for (Edge child : {n.low(), n.high()})
      if (!is_constant(child))
        stack.push_back(index_of(child));
  }
  return seen.size();
}

} // namespace bdd
