#include "bdd/model.hpp"

#include "bdd/choice.hpp"
#include "bdd/manager.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <type_traits>

namespace bdd {

ModelError::ModelError(const std::string &path, std::uint64_t offset, const std::string &what)
    : std::runtime_error(path + ": byte " + std::to_string(offset) + ": " + what), offset_(offset) {
}

ModelFormat parse_model_format(const std::string &text) {
  return parse_choice<ModelFormat>("--format", text,
                                   {{"auto", ModelFormat::Automatic},
                                    {"sylvan", ModelFormat::Sylvan},
                                    {"2014", ModelFormat::Thesis2014}});
}

namespace {

constexpr std::uint64_t kFileComplement = 1ull << 63;
constexpr std::uint64_t kMaxVectorSize = 1u << 16;
constexpr std::uint64_t kMaxGroups = 1u << 20;

/// Little-endian fields of a model file, each checked against the end.
class FileReader {
public:
  FileReader(const std::string &path, const std::vector<unsigned char> &bytes)
      : path_(path), bytes_(bytes) {}

  template <class T> T read(const char *what) {
    if (bytes_.size() - offset_ < sizeof(T))
      fail("file ends inside " + std::string(what) + " (" + std::to_string(sizeof(T)) +
           " bytes needed, " + std::to_string(bytes_.size() - offset_) + " left)");
    T value;
    std::memcpy(&value, bytes_.data() + offset_, sizeof(T));
    offset_ += sizeof(T);
    return value;
  }

  /// A count that must lie in [lo, hi].
  template <class T> std::uint64_t read_count(const char *what, std::int64_t lo, std::uint64_t hi) {
    const std::uint64_t at = offset_;
    const T value = read<T>(what);
    bool inside;
    if constexpr (std::is_signed_v<T>)
      inside = value >= lo && (value < 0 || static_cast<std::uint64_t>(value) <= hi);
    else
      inside = static_cast<std::int64_t>(value) >= lo && value <= hi;
    if (!inside)
      fail_at(at, std::string(what) + " is " + std::to_string(static_cast<std::int64_t>(value)) +
                      ", expected " + std::to_string(lo) + ".." + std::to_string(hi));
    return static_cast<std::uint64_t>(value);
  }

  /// Nodes that still fit in the file (a count larger than that is corrupt,
  /// and must not make us allocate it).
  std::uint64_t remaining_records(std::size_t size) const {
    return (bytes_.size() - offset_) / size;
  }

  std::uint64_t offset() const noexcept { return offset_; }
  bool at_end() const noexcept { return offset_ == bytes_.size(); }
  [[noreturn]] void fail(const std::string &what) const { fail_at(offset_, what); }
  [[noreturn]] void fail_at(std::uint64_t at, const std::string &what) const {
    throw ModelError(path_, at, what);
  }

private:
  const std::string &path_;
  const std::vector<unsigned char> &bytes_;
  std::uint64_t offset_ = 0;
};

/// Appends a node after checking its children: earlier nodes, and below it.
void add_node(FileReader &in, std::uint64_t at, ModelFile &model, std::uint64_t first_of_block,
              Level level, std::uint64_t low, std::uint64_t high) {
  const std::uint64_t number = model.nodes.size() + 1;
  auto check_child = [&](std::uint64_t child, const char *which) {
    if (child == 0)
      return;
    if (child < first_of_block || child >= number)
      in.fail_at(at, std::string("node ") + std::to_string(number - first_of_block + 1) + "'s " +
                         which + " edge names node " + std::to_string(child - first_of_block + 1) +
                         ", which is not before it");
    if (model.nodes[child - 1].level <= level)
      in.fail_at(at, std::string("node ") + std::to_string(number - first_of_block + 1) +
                         " on level " + std::to_string(level) + " has a " + which +
                         " child on level " + std::to_string(model.nodes[child - 1].level) +
                         " (levels must increase downwards)");
  };
  if (level >= kTerminalLevel)
    in.fail_at(at, "node level " + std::to_string(level) + " is too large");
  check_child(low, "low");
  check_child(high & ~kFileComplement, "high");
  model.nodes.push_back(FileNode{level, low, high});
}

FileEdge check_root(FileReader &in, std::uint64_t at, const ModelFile &model,
                    std::uint64_t first_of_block, std::uint64_t root) {
  const std::uint64_t node = root & ~kFileComplement;
  if (node != 0 && (node < first_of_block || node > model.nodes.size()))
    in.fail_at(at, "root names node " + std::to_string(node) + ", which the file does not have");
  return root;
}

// ---- Sylvan's format (examples/bddmc.c, mtbdd_writer_tobinary) ----

/// One mtbdd_writer_tobinary block holding one BDD; returns its root.
FileEdge read_sylvan_bdd(FileReader &in, ModelFile &model) {
  const std::uint64_t count =
      in.read_count<std::uint64_t>("node count", 0, in.remaining_records(16));
  const std::uint64_t first = model.nodes.size() + 1;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t at = in.offset();
    const std::uint64_t a = in.read<std::uint64_t>("node");
    const std::uint64_t b = in.read<std::uint64_t>("node");
    if (a & 0x7000000000000000ull)
      in.fail_at(at, "node " + std::to_string(i + 1) +
                         " is an MTBDD leaf or map node; only BDDs are supported");
    auto global = [&](std::uint64_t local) { return local == 0 ? 0 : local + first - 1; };
    const std::uint64_t high_local = a & kIndexMask;
    if ((b & kIndexMask) > i || high_local > i)
      in.fail_at(at, "node " + std::to_string(i + 1) + " has a child numbered after it");
    add_node(in, at, model, first, static_cast<Level>(b >> 40), global(b & kIndexMask),
             global(high_local) | (a & kFileComplement));
  }
  in.read_count<std::int32_t>("number of roots", 1, 1);
  const std::uint64_t at = in.offset();
  const std::uint64_t root = in.read<std::uint64_t>("root");
  const std::uint64_t local = root & kIndexMask;
  if (local > count || (root & ~(kIndexMask | kFileComplement)))
    in.fail_at(at, "root " + std::to_string(local) + " is not one of the block's " +
                       std::to_string(count) + " nodes");
  return check_root(in, at, model, first,
                    (local == 0 ? 0 : local + first - 1) | (root & kFileComplement));
}

/// Levels of the state bits of the listed vector positions (or all when
/// `positions` is empty and `all`), x only or x and x'.
std::vector<Level> levels_of(const std::vector<std::uint32_t> &bits,
                             const std::vector<int> &positions, bool all, bool with_primed) {
  std::vector<Level> levels;
  Level level = 0;
  for (std::size_t i = 0; i < bits.size(); ++i) {
    const bool chosen =
        all || std::binary_search(positions.begin(), positions.end(), static_cast<int>(i));
    for (std::uint32_t b = 0; b < bits[i]; ++b, level += 2)
      if (chosen) {
        levels.push_back(level);
        if (with_primed)
          levels.push_back(level + 1);
      }
  }
  return levels;
}

std::vector<int> read_positions(FileReader &in, std::uint64_t count, std::uint64_t vector_size,
                                const char *what) {
  std::vector<int> positions;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t at = in.offset();
    const auto p = in.read<std::int32_t>(what);
    if (p < 0 || static_cast<std::uint64_t>(p) >= vector_size ||
        (!positions.empty() && p <= positions.back()))
      in.fail_at(at, std::string(what) + " " + std::to_string(p) +
                         " is not an increasing position of the state vector (size " +
                         std::to_string(vector_size) + ")");
    positions.push_back(p);
  }
  return positions;
}

void parse_sylvan(FileReader &in, ModelFile &model) {
  const std::uint64_t vector_size = in.read_count<std::int32_t>("vector size", 1, kMaxVectorSize);
  std::vector<std::uint32_t> bits;
  std::uint64_t total = 0;
  for (std::uint64_t i = 0; i < vector_size; ++i) {
    bits.push_back(
        static_cast<std::uint32_t>(in.read_count<std::int32_t>("bits per integer", 1, 64)));
    total += bits.back();
  }
  if (2 * total >= kTerminalLevel)
    in.fail("the state vector has too many bits (" + std::to_string(total) + ")");
  in.read_count<std::int32_t>("action bits", 0, 64);
  const auto k = static_cast<std::int64_t>(static_cast<std::int32_t>(
      in.read_count<std::int32_t>("initial projection size", -1, vector_size)));
  std::vector<int> projection;
  if (k >= 0)
    projection =
        read_positions(in, static_cast<std::uint64_t>(k), vector_size, "projection position");
  model.state_variables = levels_of(bits, projection, k < 0, false);
  model.initial = read_sylvan_bdd(in, model);
  const std::uint64_t groups = in.read_count<std::int32_t>("group count", 0, kMaxGroups);
  model.groups.resize(groups);
  for (auto &group : model.groups) {
    const std::uint64_t reads = in.read_count<std::int32_t>("read projection size", 0, vector_size);
    const std::uint64_t writes =
        in.read_count<std::int32_t>("write projection size", 0, vector_size);
    std::vector<int> r = read_positions(in, reads, vector_size, "read position");
    std::vector<int> w = read_positions(in, writes, vector_size, "write position");
    std::vector<int> both;
    std::set_union(r.begin(), r.end(), w.begin(), w.end(), std::back_inserter(both));
    group.variables = levels_of(bits, both, false, true);
  }
  for (auto &group : model.groups)
    group.relation = read_sylvan_bdd(in, model);
  // What follows (LTSmin's optional reachable set and action labels) is
  // ignored, as bddmc ignores it.
}

// ---- The 2014 format (thesis experiments; tests/data/bdd-models/README.md) ----

/// A serialized BDD: count, then nodes numbered on from the file's earlier ones.
void read_2014_nodes(FileReader &in, ModelFile &model) {
  const std::uint64_t count =
      in.read_count<std::uint64_t>("node count", 0, in.remaining_records(16));
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t at = in.offset();
    const std::uint64_t a = in.read<std::uint64_t>("node");
    const std::uint64_t b = in.read<std::uint64_t>("node");
    add_node(in, at, model, 1, static_cast<Level>(a >> 40), b & kIndexMask,
             (a & kIndexMask) | (b & kFileComplement));
  }
}

std::vector<Level> read_2014_levels(FileReader &in, std::uint64_t count, Level limit) {
  std::vector<Level> levels;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t at = in.offset();
    const auto level = in.read<std::uint32_t>("variable");
    if (level >= limit)
      in.fail_at(at, "variable " + std::to_string(level) + " is outside the state vector's " +
                         std::to_string(limit) + " levels");
    levels.push_back(level);
  }
  return levels;
}

void parse_2014(FileReader &in, ModelFile &model) {
  const std::uint64_t vector_size = in.read_count<std::uint64_t>("vector size", 1, kMaxVectorSize);
  const std::uint64_t bits = in.read_count<std::uint64_t>("bits per integer", 1, 64);
  const std::uint64_t state_bits = vector_size * bits;
  if (2 * state_bits >= kTerminalLevel)
    in.fail("the state vector has too many bits (" + std::to_string(state_bits) + ")");
  const Level limit = static_cast<Level>(2 * state_bits);
  read_2014_levels(in, state_bits, limit); // x of each bit: the order, always 2i here
  read_2014_levels(in, state_bits, limit); // x' of each bit
  read_2014_nodes(in, model);
  std::uint64_t at = in.offset();
  model.initial = check_root(in, at, model, 1, in.read<std::uint64_t>("initial root"));
  const std::uint64_t initial_integers =
      in.read_count<std::uint64_t>("initial variable count", 0, vector_size);
  model.state_variables = read_2014_levels(in, initial_integers * bits, limit);
  std::sort(model.state_variables.begin(), model.state_variables.end());
  const std::uint64_t groups = in.read_count<std::int32_t>("group count", 0, kMaxGroups);
  model.groups.resize(groups);
  for (auto &group : model.groups) {
    read_2014_nodes(in, model);
    at = in.offset();
    group.relation = check_root(in, at, model, 1, in.read<std::uint64_t>("group root"));
    const std::uint64_t integers =
        in.read_count<std::uint64_t>("group variable count", 0, vector_size);
    group.variables = read_2014_levels(in, integers * bits, limit);
    std::vector<Level> primed = read_2014_levels(in, integers * bits, limit);
    group.variables.insert(group.variables.end(), primed.begin(), primed.end());
    std::sort(group.variables.begin(), group.variables.end());
  }
}

} // namespace

ModelFile parse_model_bytes(const std::string &path, const std::vector<unsigned char> &bytes,
                            ModelFormat format) {
  FileReader in(path, bytes);
  ModelFile model;
  model.path = path;
  if (format == ModelFormat::Automatic) {
    // The 2014 format starts with a size_t vector size: as two int32s, the
    // second (its high half) is 0, which Sylvan's first bit count never is.
    if (bytes.size() < 8)
      in.fail("file too short to be a model (" + std::to_string(bytes.size()) + " bytes)");
    std::int32_t second;
    std::memcpy(&second, bytes.data() + 4, 4);
    format = second == 0 ? ModelFormat::Thesis2014 : ModelFormat::Sylvan;
  }
  model.format = format;
  if (format == ModelFormat::Sylvan) {
    parse_sylvan(in, model);
  } else {
    parse_2014(in, model);
    if (!in.at_end())
      in.fail("unexpected data after the last group");
  }
  model.bytes_read = in.offset();
  return model;
}

ModelFile parse_model(const std::string &path, ModelFormat format) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw ModelError(path, 0, "cannot open the file");
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(file)),
                                   std::istreambuf_iterator<char>());
  return parse_model_bytes(path, bytes, format);
}

Model build_model(Manager &manager, const ModelFile &file) {
  std::vector<Edge> edges(file.nodes.size() + 1, kFalse);
  auto edge_of = [&](FileEdge e) {
    return complement_if(edges[e & ~kFileComplement], (e & kFileComplement) != 0);
  };
  for (std::size_t i = 0; i < file.nodes.size(); ++i) {
    const FileNode &n = file.nodes[i];
    edges[i + 1] = manager.make(n.level, edge_of(n.low), edge_of(n.high));
  }
  Model model;
  model.state_variables = file.state_variables;
  model.initial = edge_of(file.initial);
  for (const FileGroup &g : file.groups)
    model.groups.push_back(Relation{edge_of(g.relation), manager.cube(g.variables),
                                    g.variables.empty() ? kTerminalLevel : g.variables.front()});
  return model;
}

} // namespace bdd
