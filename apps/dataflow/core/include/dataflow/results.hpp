//===- dataflow/results.hpp - What a run returns -------------------------===//
///
/// \file
/// The values a run produced, by name: for a task graph, the outputs no
/// edge consumes (`values<T>("node", k)`, in tag order); for a stream
/// graph, what vertices reported (`values<T>("vertex")`, in the order each
/// vertex reported them). Asking with the wrong type is a graph_error.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/operand.hpp>
#include <dataflow/run_options.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dataflow {

class Results {
public:
  /// Values of output `output` of `name`, or of what vertex `name` reported.
  template <class T> std::vector<T> values(const std::string &name, unsigned output = 0) const {
    const Entry &e = find(name, output, codec_of<T>());
    std::vector<T> out;
    out.reserve(e.values.size());
    for (const Operand &v : e.values)
      out.push_back(v.get<T>());
    return out;
  }
  /// The one value of `name` (graph_error unless there is exactly one).
  template <class T> T value(const std::string &name, unsigned output = 0) const {
    const Entry &e = find(name, output, codec_of<T>());
    if (e.values.size() != 1)
      throw_not_single(name, output, e.values.size());
    return e.values.front().get<T>();
  }
  /// The one value of the graph's one result, for a graph that has a
  /// single output no edge consumes (graph_error unless it has exactly one,
  /// with one value).
  template <class T> T value() const {
    const auto &entry = only(codec_of<T>());
    const Entry &e = entry.second;
    if (e.values.size() != 1)
      throw_not_single(entry.first.first, entry.first.second, e.values.size());
    return e.values.front().template get<T>();
  }
  /// The number of values of `name`'s output.
  std::size_t count(const std::string &name, unsigned output = 0) const;

  const RunStats &stats() const noexcept { return stats_; }
  RunStats &stats() noexcept { return stats_; }

  /// Adds a slot for values of type `codec` (before adding them).
  void declare(const std::string &name, unsigned output, const Codec &codec);
  void add(const std::string &name, unsigned output, Operand value);

private:
  struct Entry {
    const Codec *codec = nullptr;
    std::vector<Operand> values;
  };
  const Entry &find(const std::string &name, unsigned output, const Codec &codec) const;
  /// The one result's entry, of type `codec`.
  const std::pair<const std::pair<std::string, unsigned>, Entry> &only(const Codec &codec) const;
  [[noreturn]] static void throw_not_single(const std::string &name, unsigned output,
                                            std::size_t n);

  std::map<std::pair<std::string, unsigned>, Entry> entries_;
  RunStats stats_;
};

/// Reads the failure at the start of an outcome and throws it as a
/// node_failure; returns if the run succeeded.
void throw_if_failed(poc::Reader &outcome);

} // namespace dataflow
