//===- results.cpp - Values a run returns --------------------------------===//
#include <dataflow/results.hpp>

#include <dataflow/task_graph.hpp>

#include <fmt/format.h>

namespace dataflow {

void Results::declare(const std::string &name, unsigned output, const Codec &codec) {
  entries_[{name, output}].codec = &codec;
}

void Results::add(const std::string &name, unsigned output, Operand value) {
  entries_.at({name, output}).values.push_back(std::move(value));
}

const Results::Entry &Results::find(const std::string &name, unsigned output,
                                    const Codec &codec) const {
  const auto it = entries_.find({name, output});
  if (it == entries_.end())
    throw graph_error(fmt::format("no results named '{}' (output {})", name, output));
  if (it->second.codec != &codec)
    throw graph_error(fmt::format("results of '{}' (output {}) are {}, not {}", name, output,
                                  it->second.codec->name(), codec.name()));
  return it->second;
}

const std::pair<const std::pair<std::string, unsigned>, Results::Entry> &
Results::only(const Codec &codec) const {
  if (entries_.size() != 1) {
    std::vector<std::string> names;
    for (const auto &[key, e] : entries_)
      names.push_back(fmt::format("'{}' (output {})", key.first, key.second));
    throw graph_error(fmt::format("the graph has {} results, not one{}{}: name the one to read",
                                  entries_.size(), names.empty() ? "" : ": ",
                                  fmt::join(names, ", ")));
  }
  const auto &only = *entries_.begin();
  find(only.first.first, only.first.second, codec); // the type check
  return only;
}

std::size_t Results::count(const std::string &name, unsigned output) const {
  const auto it = entries_.find({name, output});
  return it == entries_.end() ? 0 : it->second.values.size();
}

void Results::throw_not_single(const std::string &name, unsigned output, std::size_t n) {
  throw graph_error(fmt::format("'{}' (output {}) has {} values, not one", name, output, n));
}

void throw_if_failed(poc::Reader &outcome) {
  if (!outcome.read<bool>())
    return;
  Failure f;
  outcome.read_all(f.where, f.type, f.message);
  throw node_failure(std::move(f));
}

} // namespace dataflow
