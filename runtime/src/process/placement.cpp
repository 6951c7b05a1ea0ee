#include "placement.hpp"

#include "host.hpp"
#include "transport/engine.hpp"
#include "transport/host_numbers.hpp"

#include <poc/errors.hpp>

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <unordered_map>

namespace poc::detail {
namespace {

struct Placement {
  int rank = 0;
  int size = 1;
  /// Host number of world rank 0 (0, or a spawned batch's base).
  int base = 0;
  /// Host name of every world rank.
  std::vector<std::string> host_of;
  /// Configured machine names -> host names, in configuration order.
  std::vector<std::pair<std::string, std::string>> config;
  /// Where config came from ("POC_MACHINES", "POC_MACHINEFILE <file>").
  std::string config_source;
  /// The configuration's entry `*=*`: a name it does not list denotes every
  /// host, as with no configuration (otherwise such a name is an error).
  bool any_name = false;
  /// Hosts this rank spawned, with the host name they were started on
  /// ("" for an unconfigured machine: wherever MPI placed them).
  std::vector<std::pair<int, std::string>> spawned;
  /// POC_HOST_CAPACITY: live processes this rank creates per host before
  /// it spawns a new host (0: unlimited, never spawn for capacity).
  long capacity = 0;
  /// POC_SPAWN_BATCH: hosts started per spawn when capacity runs out.
  int batch = 1;
  /// Live processes this rank created on each host (guarded by mu).
  std::unordered_map<int, long> live;
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

void init_placement(int rank, int size, int base) {
  Placement &p = placement();
  p.rank = rank;
  p.size = size;
  p.base = base;
  p.capacity = 0;
  p.batch = 1;
  if (const char *c = std::getenv("POC_HOST_CAPACITY"); c && std::atol(c) > 0)
    p.capacity = std::atol(c);
  if (const char *b = std::getenv("POC_SPAWN_BATCH"); b && std::atoi(b) > 0)
    p.batch = std::atoi(b);
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
  p.live.clear();
  p.spawned.clear();
  p.config.clear();
  if (const char *env = std::getenv("POC_MACHINES"); env && *env) {
    p.config = parse_machine_map(env);
    p.config_source = "POC_MACHINES";
  } else if (const char *file = std::getenv("POC_MACHINEFILE"); file && *file) {
    std::ifstream in(file);
    if (!in)
      throw usage_error(std::string("poc: cannot read the machine file ") + file);
    std::stringstream ss;
    ss << in.rdbuf();
    p.config = parse_machine_map(ss.str());
    p.config_source = std::string("POC_MACHINEFILE ") + file;
  }
  auto any =
      std::find_if(p.config.begin(), p.config.end(), [](const auto &e) { return e.first == "*"; });
  p.any_name = any != p.config.end();
  if (p.any_name && any->second != "*")
    throw usage_error("poc: machine map entry '*=" + any->second + "' in " + p.config_source +
                      ": '*' maps only to '*' (names not listed denote every host)");
  if (p.any_name)
    p.config.erase(any);
}

namespace {

/// The configuration entry of `m`, or null for a name that denotes every
/// host (there is no configuration, or it has the entry `*=*`). A name the
/// configuration does not list is a misspelling: a usage_error naming the
/// names it lists.
const std::pair<std::string, std::string> *config_of(const Placement &p, const machine &m) {
  auto it = std::find_if(p.config.begin(), p.config.end(),
                         [&](const auto &e) { return e.first == m.name(); });
  if (it != p.config.end())
    return &*it;
  if (p.config.empty() || p.any_name)
    return nullptr;
  std::string known;
  for (const auto &[name, hostname] : p.config)
    known += (known.empty() ? "" : ", ") + name;
  throw usage_error("poc: machine '" + m.name() + "' is not in " + p.config_source +
                    ", which names " + known +
                    " (an entry '*=*' there lets other names denote every host)");
}

/// The number after `prefix` in `name`, or -1 if `name` does not start
/// with `prefix`; throws usage_error (with `what`) if it is not a number.
int number_after(const std::string &name, const char *prefix, const std::string &what) {
  if (name.rfind(prefix, 0) != 0)
    return -1;
  const std::string digits = name.substr(std::strlen(prefix));
  int n = -1;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || n < 0)
    throw usage_error("poc: machine '" + name + "' names no " + what);
  return n;
}

/// True if host `h` is one of the world's ranks.
bool is_rank(const Placement &p, int h) { return h >= p.base && h < p.base + p.size; }

/// The host a `rank:N` or `host:N` machine names, or -1 for other names.
int named_host(const Placement &p, const machine &m) {
  const std::string ranks = "rank of this job (ranks 0.." + std::to_string(p.size - 1) + ")";
  if (int r = number_after(m.name(), kRankMachinePrefix, ranks); r >= 0) {
    if (r >= p.size)
      throw usage_error("poc: machine '" + m.name() + "' names no " + ranks);
    return p.base + r;
  }
  const std::string hosts = "host of this job";
  int h = number_after(m.name(), kHostMachinePrefix, hosts);
  if (h < 0)
    return -1;
  bool spawned = is_spawned_host(h) && spawner_of(h) < p.base + p.size;
  if (!is_rank(p, h) && !spawned)
    throw usage_error("poc: machine '" + m.name() + "' names no " + hosts);
  return h;
}

/// The world's ranks on `m`'s host (every rank for an unconfigured name).
std::vector<int> ranks_of(const Placement &p, const machine &m) {
  if (int h = named_host(p, m); h >= 0)
    return is_rank(p, h) ? std::vector<int>{h} : std::vector<int>{};
  const auto *cfg = config_of(p, m);
  std::vector<int> hosts;
  for (int r = 0; r < p.size; ++r)
    if (!cfg || p.host_of[static_cast<std::size_t>(r)] == cfg->second)
      hosts.push_back(p.base + r);
  return hosts;
}

/// The hosts machine `m` denotes (mu held): its ranks and the hosts this
/// rank spawned for it.
std::vector<int> hosts_of(const Placement &p, const machine &m) {
  if (int h = named_host(p, m); h >= 0)
    return {h};
  const auto *cfg = config_of(p, m);
  std::vector<int> hosts = ranks_of(p, m);
  for (const auto &[h, name] : p.spawned)
    if (!cfg || name == cfg->second)
      hosts.push_back(h);
  return hosts;
}

/// Spawns `n` hosts for `m` (mu held, so concurrent creations do not
/// spawn twice) and returns their numbers.
std::vector<int> spawn_for(Placement &p, const machine &m, int n) {
  const auto *cfg = config_of(p, m);
  std::string name = cfg ? cfg->second : std::string();
  std::vector<int> hosts;
  try {
    hosts = host().spawn_hosts(name, n);
  } catch (const usage_error &e) {
    if (!cfg)
      throw;
    throw usage_error(
        "poc: machine '" + m.name() + "' maps to host '" + cfg->second +
        "', which runs no rank of this job, and no host could be started there: " + e.what());
  }
  for (int h : hosts)
    p.spawned.emplace_back(h, name);
  return hosts;
}

} // namespace

int choose_host(const machine &m) {
  Placement &p = placement();
  std::lock_guard<std::mutex> g(p.mu);
  // A host named explicitly is used whatever its load.
  if (int h = named_host(p, m); h >= 0) {
    ++p.live[h];
    return h;
  }
  int best = -1;
  for (int h : hosts_of(p, m)) {
    long lh = p.live[h];
    if (p.capacity > 0 && lh >= p.capacity)
      continue;
    if (best < 0) {
      best = h;
      continue;
    }
    // Host 0 runs main: use it only when no other host is available.
    bool h_main = h == 0, best_main = best == 0;
    if (h_main != best_main ? best_main : lh < p.live[best])
      best = h;
  }
  // No host of the machine has room (or it has none): start new ones.
  if (best < 0)
    best = spawn_for(p, m, p.batch).front();
  ++p.live[best];
  return best;
}

int host_for_key(const machine &m, std::uint64_t key) {
  Placement &p = placement();
  // Only the world's ranks: every caller must derive the same host, and
  // each rank knows only the hosts it spawned itself.
  std::vector<int> hosts = ranks_of(p, m);
  if (hosts.empty())
    throw usage_error("poc: machine '" + m.name() +
                      "' maps to a host that runs no rank of this job (persistent processes "
                      "live on ranks)");
  // Host 0 runs main: use it only when the machine has no other host.
  if (hosts.size() > 1 && hosts.front() == 0)
    hosts.erase(hosts.begin());
  return hosts[key % hosts.size()];
}

void note_destroyed(int host) {
  Placement &p = placement();
  std::lock_guard<std::mutex> g(p.mu);
  if (auto it = p.live.find(host); it != p.live.end() && it->second > 0)
    --it->second;
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

void reserve(const machine &m, int hosts) {
  auto &p = detail::placement();
  std::lock_guard<std::mutex> g(p.mu);
  detail::spawn_for(p, m, hosts);
}

machine rank_machine(int rank) { return machine(kRankMachinePrefix + std::to_string(rank)); }

machine machine_of(const void *process) {
  if (!process)
    throw usage_error("poc::machine_of: null process");
  int host = detail::host().rank();
  if (is_remote(process))
    host = remote_id(process).host;
  else if (std::optional<ProcessId> id = hosted_id(process))
    host = id->host;
  return machine(kHostMachinePrefix + std::to_string(host));
}

int job_ranks() {
  auto &p = detail::placement();
  if (p.host_of.empty())
    throw usage_error("poc: poc::job_ranks() called outside poc::run");
  return p.size;
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
