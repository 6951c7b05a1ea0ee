#include "placement.hpp"

#include "engine.hpp"

#include <poc/errors.hpp>

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>

namespace poc::detail {
namespace {

struct Placement {
  int rank = 0;
  int size = 1;
  /// Host name of every rank.
  std::vector<std::string> host_of;
  /// Configured machine names -> host names, in configuration order.
  std::vector<std::pair<std::string, std::string>> config;
  /// Live processes this rank created on each rank.
  std::unique_ptr<std::atomic<long>[]> live;
  std::mutex mu;
};

Placement &placement() {
  static Placement p;
  return p;
}

std::string trim(std::string s) {
  auto b = s.find_first_not_of(" \t\r");
  auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

} // namespace

std::vector<std::pair<std::string, std::string>> parse_machine_map(const std::string &text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string entry;
  std::istringstream in(text);
  while (std::getline(in, entry, '\n')) {
    std::istringstream parts(entry);
    std::string item;
    while (std::getline(parts, item, ';')) {
      item = trim(item);
      if (item.empty() || item[0] == '#')
        continue;
      auto eq = item.find('=');
      if (eq == std::string::npos)
        throw usage_error("poc: machine map entry '" + item + "' is not of the form name=host");
      std::string name = trim(item.substr(0, eq)), hostname = trim(item.substr(eq + 1));
      if (name.empty() || hostname.empty())
        throw usage_error("poc: machine map entry '" + item + "' has an empty name or host");
      out.emplace_back(name, hostname);
    }
  }
  return out;
}

void init_placement(int rank, int size) {
  Placement &p = placement();
  p.rank = rank;
  p.size = size;
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  std::vector<char> all(static_cast<std::size_t>(size) * MPI_MAX_PROCESSOR_NAME);
  check_mpi(MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(),
                          MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD),
            "MPI_Allgather");
  p.host_of.clear();
  for (int r = 0; r < size; ++r) {
    const char *s = all.data() + static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME;
    p.host_of.emplace_back(s, strnlen(s, MPI_MAX_PROCESSOR_NAME));
  }
  p.live = std::make_unique<std::atomic<long>[]>(static_cast<std::size_t>(size));
  p.config.clear();
  if (const char *env = std::getenv("POC_MACHINES"); env && *env) {
    p.config = parse_machine_map(env);
  } else if (const char *file = std::getenv("POC_MACHINEFILE"); file && *file) {
    std::ifstream in(file);
    if (!in)
      throw usage_error(std::string("poc: cannot read the machine file ") + file);
    std::stringstream ss;
    ss << in.rdbuf();
    p.config = parse_machine_map(ss.str());
  }
}

namespace {
/// The ranks machine `m` denotes; throws usage_error if none.
std::vector<int> ranks_of(const machine &m) {
  Placement &p = placement();
  std::vector<int> ranks;
  auto cfg = std::find_if(p.config.begin(), p.config.end(),
                          [&](const auto &e) { return e.first == m.name(); });
  for (int r = 0; r < p.size; ++r)
    if (cfg == p.config.end() || p.host_of[static_cast<std::size_t>(r)] == cfg->second)
      ranks.push_back(r);
  if (ranks.empty())
    throw usage_error("poc: machine '" + m.name() + "' maps to host '" + cfg->second +
                      "', which runs no rank of this job");
  return ranks;
}
} // namespace

int choose_host(const machine &m) {
  Placement &p = placement();
  std::vector<int> ranks = ranks_of(m);
  std::lock_guard<std::mutex> g(p.mu);
  int best = -1;
  for (int r : ranks) {
    if (best < 0) {
      best = r;
      continue;
    }
    // Rank 0 runs main: use it only when no other rank is available.
    bool r_main = r == 0, best_main = best == 0;
    long lr = p.live[static_cast<std::size_t>(r)], lb = p.live[static_cast<std::size_t>(best)];
    if (r_main != best_main ? best_main : lr < lb)
      best = r;
  }
  ++p.live[static_cast<std::size_t>(best)];
  return best;
}

int host_for_key(const machine &m, std::uint64_t key) {
  std::vector<int> ranks = ranks_of(m);
  // Rank 0 runs main: use it only when the machine has no other rank.
  if (ranks.size() > 1 && ranks.front() == 0)
    ranks.erase(ranks.begin());
  return ranks[key % ranks.size()];
}

void note_destroyed(int host) {
  Placement &p = placement();
  if (host >= 0 && host < p.size && p.live)
    --p.live[static_cast<std::size_t>(host)];
}

} // namespace poc::detail

namespace poc {

std::vector<machine> machines() {
  auto &p = detail::placement();
  std::vector<machine> out;
  if (!p.config.empty()) {
    for (const auto &[name, hostname] : p.config)
      out.emplace_back(name);
    return out;
  }
  std::vector<std::string> seen;
  for (const auto &h : p.host_of)
    if (std::find(seen.begin(), seen.end(), h) == seen.end())
      seen.push_back(h);
  for (auto &h : seen)
    out.emplace_back(h);
  if (out.empty())
    throw usage_error("poc: poc::machines() called outside poc::run");
  return out;
}

machine this_machine() {
  auto &p = detail::placement();
  if (p.host_of.empty())
    throw usage_error("poc: poc::this_machine() called outside poc::run");
  const std::string &mine = p.host_of[static_cast<std::size_t>(p.rank)];
  for (const auto &[name, hostname] : p.config)
    if (hostname == mine)
      return machine(name);
  return machine(mine);
}

} // namespace poc

void *operator new(std::size_t, const poc::machine &m) {
  throw poc::usage_error("poc: new(\"" + m.name() +
                         "\") T creates a process; compile this program with poc++");
}

void *operator new[](std::size_t, const poc::machine &m) {
  throw poc::usage_error("poc: new(\"" + m.name() +
                         "\") T[n] creates a remote array; compile this program with poc++");
}

void operator delete(void *, const poc::machine &) noexcept {}
void operator delete[](void *, const poc::machine &) noexcept {}
