#include "bdd/manager.hpp"

#include <algorithm>
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
  return complement_if(table_.find_or_put(node), flip);
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
  default:
    throw std::invalid_argument("no task for operation " +
                                std::to_string(static_cast<unsigned>(task.op)));
  }
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
  if (auto hit = cache_.find(Operation::And, f, g, 0))
    return *hit;
  if (stealing_)
    stealing_->poll();
  // Recursion.
  const Level top = std::min(level(f), level(g));
  const Cofactors fc = cofactors_at(f, top), gc = cofactors_at(g, top);
  const Edge low = apply_and(fc.low, gc.low);
  const Edge high = apply_and(fc.high, gc.high);
  // Make node, cache store.
  const Edge result = make(top, low, high);
  cache_.store(Operation::And, f, g, 0, result);
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
  if (auto hit = cache_.find(Operation::Ite, f, g, h))
    return complement_if(*hit, flip);
  // Recursion.
  const Level top = std::min({level(f), level(g), level(h)});
  const Cofactors fc = cofactors_at(f, top), gc = cofactors_at(g, top), hc = cofactors_at(h, top);
  const Edge low = ite(fc.low, gc.low, hc.low);
  const Edge high = ite(fc.high, gc.high, hc.high);
  // Make node, cache store.
  const Edge result = make(top, low, high);
  cache_.store(Operation::Ite, f, g, h, result);
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
  if (auto hit = cache_.find(Operation::Exists, f, variables, 0))
    return *hit;
  // Recursion.
  const Cofactors fc = cofactors_at(f, top);
  Edge result;
  if (level(variables) == top) {
    const Edge rest = cofactors_at(variables, top).high;
    const Edge low = exists(fc.low, rest);
    result = low == kTrue ? kTrue : apply_or(low, exists(fc.high, rest));
  } else {
    // Make node.
    result = make(top, exists(fc.low, variables), exists(fc.high, variables));
  }
  // Cache store.
  cache_.store(Operation::Exists, f, variables, 0, result);
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
  if (auto hit = cache_.find(Operation::RelNext, states, relation, variables))
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
    } else {
      e00 = relnext(s.low, r0.low, rest);
      e10 = relnext(s.high, r1.low, rest);
      e01 = relnext(s.low, r0.high, rest);
      e11 = relnext(s.high, r1.high, rest);
    }
    const Edge low = apply_or(e00, e10);
    const Edge high = apply_or(e01, e11);
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
    if (s.low == s.high)
      result = either(s.low);
    else // make node
      result = make(top, either(s.low), either(s.high));
  }
  // Cache store.
  cache_.store(Operation::RelNext, states, relation, variables, result);
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
