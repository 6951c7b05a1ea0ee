//===- bdd/model.hpp - Partitioned transition systems from files ----*- C++ -*-===//
///
/// \file
/// The models of tests/data/bdd-models: an initial set of states and groups
/// of a partitioned transition relation, as BDDs in LTSmin's interleaved
/// order (state bit i is level 2i, its next-state copy 2i+1). Two file
/// formats (docs/bdd.md describes both):
///
///  * Sylvan: the current format of Sylvan's examples/bddmc.c
///    (int vector size, int bits per integer..., int action bits, the
///    initial set, int group count, every group's read and write
///    projections, then every group's relation);
///  * 2014: the format of the thesis's experiments (size_t vector size and
///    bits per integer, the two variable maps, the initial set and the
///    groups, nodes numbered across the whole file).
///
/// Reading is two steps: parse_model checks every field and keeps the nodes
/// as numbers, so a malformed file fails with its name and byte offset
/// before any node is made; build_model then makes the nodes.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "bdd/edge.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace bdd {

class Manager;

/// A model file that cannot be read; what() names the file and the byte.
class ModelError : public std::runtime_error {
public:
  ModelError(const std::string &path, std::uint64_t offset, const std::string &what);
  std::uint64_t offset() const noexcept { return offset_; }

private:
  std::uint64_t offset_;
};

enum class ModelFormat { Automatic, Sylvan, Thesis2014 };

/// Parses "auto", "sylvan" or "2014"; throws std::invalid_argument.
ModelFormat parse_model_format(const std::string &text);

/// A node as the file numbers it: children are 1-based numbers of earlier
/// nodes of the file (0 is false).
struct FileNode {
  Level level;
  std::uint64_t low;  ///< never complemented
  std::uint64_t high; ///< node number, bit 63 = complement
};

/// A BDD of the file: its root as a node number (bit 63 = complement).
using FileEdge = std::uint64_t;

/// One group of the partitioned transition relation.
struct FileGroup {
  FileEdge relation;
  std::vector<Level> variables; ///< the x and x' levels it is defined on, sorted
};

/// A parsed model file.
struct ModelFile {
  std::string path;
  ModelFormat format;                 ///< never Automatic
  std::vector<Level> state_variables; ///< x levels a state is counted over, sorted
  std::vector<FileNode> nodes;        ///< nodes[i-1] is node number i
  FileEdge initial;
  std::vector<FileGroup> groups;
  std::uint64_t bytes_read = 0; ///< where the model ends (Sylvan's files may go on)
};

/// Reads and checks `path`. Throws ModelError.
ModelFile parse_model(const std::string &path, ModelFormat format);
/// The same from bytes already in memory (`path` names them in errors).
ModelFile parse_model_bytes(const std::string &path, const std::vector<unsigned char> &bytes,
                            ModelFormat format);

/// A group of the transition relation as BDDs.
struct Relation {
  Edge relation;
  Edge variables; ///< cube of its x and x' levels
  Level top;      ///< its first level (saturation orders groups by it)
};

/// A model as BDDs in a Manager's table.
struct Model {
  std::vector<Level> state_variables;
  Edge initial = kFalse;
  std::vector<Relation> groups;
};

/// Makes the nodes of `file` in `manager`.
Model build_model(Manager &manager, const ModelFile &file);

} // namespace bdd
