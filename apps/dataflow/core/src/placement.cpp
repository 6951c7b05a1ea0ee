//===- placement.cpp - List scheduling and allocation files --------------===//
#include <dataflow/placement.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_map>

namespace dataflow {

namespace {

void check_pin(const NodeSpec &spec, const std::vector<int> &workers) {
  if (spec.pinned_machine < 0)
    return;
  if (spec.pinned_machine >= static_cast<int>(workers.size()))
    throw graph_error(fmt::format("node '{}' is pinned to machine {}, but the run has {}",
                                  spec.name, spec.pinned_machine, workers.size()));
  if (spec.pinned_worker >= workers[spec.pinned_machine])
    throw graph_error(fmt::format("node '{}' is pinned to worker {} of machine {}, which has {}",
                                  spec.name, spec.pinned_worker, spec.pinned_machine,
                                  workers[spec.pinned_machine]));
}

bool allowed(const NodeSpec &spec, const Place &w) {
  return (spec.pinned_machine < 0 || spec.pinned_machine == w.machine) &&
         (spec.pinned_worker < 0 || spec.pinned_worker == w.worker);
}

} // namespace

std::vector<Place> list_schedule(const TaskGraph &graph, const GraphShape &shape,
                                 const std::vector<int> &workers, const PlacementCosts &costs) {
  // Worker slots in the order roots are dealt out: worker 0 of every
  // machine, then worker 1 of every machine, ...
  std::vector<Place> slots;
  const int most = *std::max_element(workers.begin(), workers.end());
  for (int w = 0; w < most; ++w)
    for (int m = 0; m < static_cast<int>(workers.size()); ++m)
      if (w < workers[m])
        slots.push_back({m, w});

  std::vector<double> free_at(slots.size(), 0);
  std::vector<double> finish(graph.size(), 0);
  std::vector<Place> place(graph.size());
  std::size_t next_root = 0;
  auto edge_cost = [&](const Place &a, const Place &b) {
    return a == b ? 0.0 : a.machine == b.machine ? costs.same_machine : costs.other_machine;
  };

  for (NodeId n : shape.topological_order) {
    const NodeSpec &spec = graph.spec(n);
    check_pin(spec, workers);
    const auto &producers = shape.nodes[n].producers;
    std::size_t chosen = slots.size();
    // When the node can start on the chosen worker.
    double start = std::numeric_limits<double>::infinity();
    if (producers.empty()) {
      for (std::size_t tried = 0; tried < slots.size() && chosen == slots.size(); ++tried) {
        const std::size_t s = (next_root + tried) % slots.size();
        if (allowed(spec, slots[s]))
          chosen = s;
      }
      next_root = chosen + 1;
      start = free_at[chosen];
    } else {
      NodeId heaviest = producers.front().node;
      for (const OutputRef &p : producers)
        if (graph.spec(p.node).weight > graph.spec(heaviest).weight)
          heaviest = p.node;
      int best_level = 3;
      for (std::size_t s = 0; s < slots.size(); ++s) {
        if (!allowed(spec, slots[s]))
          continue;
        double ready = 0;
        for (const OutputRef &p : producers)
          ready = std::max(ready, finish[p.node] + edge_cost(place[p.node], slots[s]));
        const double can_start = std::max(ready, free_at[s]);
        const Place &h = place[heaviest];
        const int level = slots[s] == h ? 0 : slots[s].machine == h.machine ? 1 : 2;
        if (can_start < start || (can_start == start && level < best_level)) {
          start = can_start;
          best_level = level;
          chosen = s;
        }
      }
    }
    place[n] = slots[chosen];
    finish[n] = start + spec.weight;
    free_at[chosen] = finish[n];
  }
  return place;
}

void write_allocation(const std::string &path, const TaskGraph &graph,
                      const std::vector<Place> &places, const std::vector<int> &workers) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    if (!out)
      throw std::runtime_error(fmt::format("cannot write allocation file {}", temporary));
    out << "# dataflow allocation: node<TAB>machine<TAB>worker\n";
    out << "machines";
    for (int w : workers)
      out << ' ' << w;
    out << '\n';
    for (NodeId n = 0; n < graph.size(); ++n) {
      const std::string &name = graph.spec(n).name;
      if (name.find_first_of("\t\n") != std::string::npos)
        throw graph_error(fmt::format("node name '{}' cannot go into an allocation file (it "
                                      "holds a tab or a newline)",
                                      name));
      out << name << '\t' << places[n].machine << '\t' << places[n].worker << '\n';
    }
    if (!out.flush())
      throw std::runtime_error(fmt::format("cannot write allocation file {}", temporary));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0)
    throw std::runtime_error(fmt::format("cannot rename {} to {}", temporary, path));
}

std::vector<Place> read_allocation(const std::string &path, const TaskGraph &graph,
                                   const std::vector<int> &workers) {
  std::ifstream in(path);
  if (!in)
    throw graph_error(fmt::format("cannot read allocation file {}", path));
  std::unordered_map<std::string, NodeId> ids;
  for (NodeId n = 0; n < graph.size(); ++n)
    ids.emplace(graph.spec(n).name, n);
  std::vector<Place> places(graph.size());
  std::vector<bool> seen(graph.size());
  std::size_t line_number = 0, placed = 0;
  bool machines_seen = false;
  std::string line;
  auto fail = [&](const std::string &what) {
    return graph_error(fmt::format("{}:{}: {}", path, line_number, what));
  };
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty() || line[0] == '#')
      continue;
    if (!machines_seen) {
      std::istringstream fields(line);
      std::string word;
      std::vector<int> counts;
      fields >> word;
      for (int w; fields >> w;)
        counts.push_back(w);
      if (word != "machines" || !fields.eof())
        throw fail("expected 'machines' and the worker count of each machine");
      if (counts != workers)
        throw fail(fmt::format("written for {} machines with workers [{}], but this run has {} "
                               "with [{}]: remove the file to place the graph again",
                               counts.size(), fmt::join(counts, " "), workers.size(),
                               fmt::join(workers, " ")));
      machines_seen = true;
      continue;
    }
    const auto tab1 = line.find('\t');
    const auto tab2 = tab1 == std::string::npos ? tab1 : line.find('\t', tab1 + 1);
    if (tab2 == std::string::npos)
      throw fail("expected node<TAB>machine<TAB>worker");
    const std::string name = line.substr(0, tab1);
    const auto id = ids.find(name);
    if (id == ids.end())
      throw fail(fmt::format("the graph has no node named '{}'", name));
    if (seen[id->second])
      throw fail(fmt::format("node '{}' is placed twice", name));
    Place p;
    std::istringstream numbers(line.substr(tab1 + 1));
    if (!(numbers >> p.machine >> p.worker) || p.machine < 0 ||
        p.machine >= static_cast<int>(workers.size()) || p.worker < 0 ||
        p.worker >= workers[p.machine])
      throw fail(fmt::format("node '{}': no such machine and worker in this run", name));
    seen[id->second] = true;
    places[id->second] = p;
    ++placed;
  }
  if (!machines_seen)
    throw graph_error(fmt::format("{}: not an allocation file (no 'machines' line)", path));
  if (placed != graph.size())
    for (NodeId n = 0; n < graph.size(); ++n)
      if (!seen[n])
        throw graph_error(fmt::format("{}: node '{}' is not placed (the file was written for "
                                      "another graph: remove it to place this one)",
                                      path, graph.spec(n).name));
  return places;
}

} // namespace dataflow
