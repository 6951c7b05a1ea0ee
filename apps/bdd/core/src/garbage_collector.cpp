#include "bdd/garbage_collector.hpp"
#include "bdd/team.hpp"

#include <bit>
#include <chrono>
#include <vector>

namespace bdd {

namespace {

/// The nodes reachable from some roots, each with a dense number: a bit per
/// bucket of the table says whether it holds one, and a count per word of
/// bits numbers them in index order without a hash map.
class LiveSet {
public:
  explicit LiveSet(std::uint64_t buckets) : bits_((buckets + 63) / 64) {}

  bool contains(std::uint64_t index) const noexcept {
    return (bits_[index / 64] >> (index % 64)) & 1;
  }
  void insert(std::uint64_t index) noexcept { bits_[index / 64] |= 1ull << (index % 64); }

  /// Call once every node is in: numbers them 0, 1, ... in index order.
  void number() {
    before_.resize(bits_.size());
    std::uint64_t count = 0;
    for (std::size_t w = 0; w < bits_.size(); ++w) {
      before_[w] = count;
      count += static_cast<std::uint64_t>(std::popcount(bits_[w]));
    }
  }
  /// The dense number of a node in the set.
  std::uint64_t number_of(std::uint64_t index) const noexcept {
    const std::uint64_t below = bits_[index / 64] & ((1ull << (index % 64)) - 1);
    return before_[index / 64] + static_cast<std::uint64_t>(std::popcount(below));
  }

private:
  std::vector<std::uint64_t> bits_;
  std::vector<std::uint64_t> before_; ///< nodes in the words before each word
};

/// A live node as it was before the collection.
struct LiveNode {
  std::uint64_t index;
  Node node;
};

/// The nodes reachable from `roots`, children before parents (an iterative
/// depth-first search: BDDs can be thousands of levels deep). A node is
/// marked when it is expanded, not when it is pushed, so a node reached
/// twice on the stack is listed after all of its children: a marked child
/// cannot be on the path above it, since the graph has no cycles, so it was
/// already listed.
std::vector<LiveNode> reachable(NodeTable &table, std::span<const Edge> roots, LiveSet &live) {
  struct Frame {
    std::uint64_t index;
    Node node;
    bool expanded;
  };
  std::vector<LiveNode> order;
  std::vector<Frame> stack;
  auto push = [&](Edge e) {
    const std::uint64_t index = index_of(e);
    if (index != 0 && !live.contains(index))
      stack.push_back(Frame{index, Node{}, false});
  };
  for (Edge root : roots) {
    push(root);
    while (!stack.empty()) {
      Frame &top = stack.back();
      if (top.expanded) {
        order.push_back(LiveNode{top.index, top.node});
        stack.pop_back();
        continue;
      }
      if (live.contains(top.index)) { // listed since it was pushed
        stack.pop_back();
        continue;
      }
      live.insert(top.index);
      top.expanded = true;
      top.node = table.node(top.index);
      const Node node = top.node; // push may move the stack
      push(node.high());
      push(node.low());
    }
  }
  return order;
}

} // namespace

GarbageCollector::GarbageCollector(MPI_Comm team, NodeTable &table, OperationCache &cache)
    : team_(team), table_(table), cache_(cache) {
  MPI_Comm_rank(team, &member_);
}

bool GarbageCollector::due(std::uint64_t nodes) const noexcept {
  const std::uint64_t live = counters_.live;
  return nodes > live && nodes - live >= (table_.capacity() - live) / 2;
}

void GarbageCollector::collect(std::span<Edge> roots) {
  const auto start = std::chrono::steady_clock::now();
  LiveSet live(0);
  std::vector<LiveNode> order;
  // A failure here (memory for the copies) leaves the table as it was.
  agreed_step(team_, [&] {
    if (member_ != 0)
      return;
    live = LiveSet(table_.index_limit());
    order = reachable(table_, roots, live);
    live.number();
  });
  // Nobody reads the table while it is emptied, nor before it is (the
  // agreement above was the barrier).
  table_.clear_local();
  cache_.clear_local();
  MPI_Barrier(team_);
  agreed_step(team_, [&] {
    if (member_ != 0)
      return;
    std::vector<std::uint64_t> renumbered(order.size());
    auto renumber = [&](Edge e) {
      return is_constant(e) ? e : (e & ~kIndexMask) | renumbered[live.number_of(index_of(e))];
    };
    for (const LiveNode &n : order)
      renumbered[live.number_of(n.index)] = table_.find_or_put(
          Node::make(n.node.level(), renumber(n.node.low()), renumber(n.node.high())));
    for (Edge &root : roots)
      root = renumber(root);
  });
  MPI_Bcast(roots.data(), static_cast<int>(roots.size()), MPI_UINT64_T, 0, team_);
  std::uint64_t kept = order.size();
  MPI_Bcast(&kept, 1, MPI_UINT64_T, 0, team_);
  ++counters_.collections;
  counters_.live = kept;
  counters_.seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace bdd
