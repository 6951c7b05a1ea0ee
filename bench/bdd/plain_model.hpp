// The model as plain data for buddy_reach.cpp, whose BuDDy header declares
// a class `bdd` that clashes with apps/bdd's namespace.
#pragma once

#include <cstdint>
#include <vector>

struct PlainNode {
  unsigned level;
  std::uint64_t low, high; ///< file node numbers, bit 63 = complement
};
struct PlainGroup {
  std::uint64_t relation;
  std::vector<unsigned> variables; ///< sorted x and x' levels
};
struct PlainModel {
  std::vector<unsigned> state_variables; ///< sorted
  std::vector<PlainNode> nodes;          ///< nodes[i-1] is node i
  std::uint64_t initial;
  std::vector<PlainGroup> groups;
};

/// Reads a model with apps/bdd's parser; throws its ModelError.
PlainModel read_plain_model(const char *path);
