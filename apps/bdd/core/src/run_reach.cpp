#include "bdd/run_reach.hpp"

#include "bdd/garbage_collector.hpp"
#include "bdd/manager.hpp"
#include "bdd/model.hpp"
#include "bdd/reachability.hpp"
#include "bdd/team.hpp"
#include "bdd/thread_team.hpp"

#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

namespace bdd {

namespace {

/// The model's edges as words, for broadcasting: the nodes themselves are
/// in the shared table already.
std::vector<std::uint64_t> encode(const Model &m) {
  std::vector<std::uint64_t> words{m.initial, m.state_variables.size()};
  words.insert(words.end(), m.state_variables.begin(), m.state_variables.end());
  words.push_back(m.groups.size());
  for (const Relation &r : m.groups)
    words.insert(words.end(), {r.relation, r.variables, r.top});
  return words;
}

Model decode(const std::vector<std::uint64_t> &words) {
  Model m;
  std::size_t at = 0;
  m.initial = words[at++];
  m.state_variables.resize(words[at++]);
  for (Level &l : m.state_variables)
    l = static_cast<Level>(words[at++]);
  m.groups.resize(words[at++]);
  for (Relation &r : m.groups) {
    r.relation = words[at++];
    r.variables = words[at++];
    r.top = static_cast<Level>(words[at++]);
  }
  return m;
}

/// Member 0 reads the model file; every member learns how many nodes it
/// has (to size the table), or that it could not be read, which stops all.
std::optional<ModelFile> read_model(MPI_Comm team, const ReachOptions &o, std::uint64_t &nodes) {
  int member = 0;
  MPI_Comm_rank(team, &member);
  std::optional<ModelFile> file;
  nodes = ~0ull;
  std::exception_ptr failure;
  if (member == 0) {
    try {
      file = parse_model(o.model, parse_model_format(o.format));
      nodes = file->nodes.size();
    } catch (const std::exception &) {
      failure = std::current_exception();
    }
  }
  MPI_Bcast(&nodes, 1, MPI_UINT64_T, 0, team);
  if (failure)
    std::rethrow_exception(failure);
  if (nodes == ~0ull)
    throw PeerFailed(0);
  return file;
}

/// Member 0's model, made in the table, on every member.
Model share_model(MPI_Comm team, Manager &manager, const std::optional<ModelFile> &file) {
  std::vector<std::uint64_t> words;
  if (file) {
    try {
      words = encode(build_model(manager, *file));
    } catch (const std::exception &) {
      std::uint64_t failed = ~0ull;
      MPI_Bcast(&failed, 1, MPI_UINT64_T, 0, team);
      throw;
    }
  }
  std::uint64_t size = words.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, 0, team);
  if (size == ~0ull)
    throw PeerFailed(0);
  words.resize(size);
  MPI_Bcast(words.data(), static_cast<int>(size), MPI_UINT64_T, 0, team);
  return decode(words);
}

struct Totals {
  std::uint64_t nodes, lookups, chunks, compared, cas_failed, operations, round_trips,
      cache_lookups, cache_hits, spawned, steals, attempts, leapfrogs, thread_spawned,
      thread_steals, thread_leapfrogs;
};

Totals gather_totals(MPI_Comm team, NodeTable &table, OperationCache &cache,
                     const WorkStealing *stealing, const ThreadTeam *threads) {
  const TableCounters &t = table.counters();
  const CacheCounters &c = cache.counters();
  const RmaCounters &r = table.memory().counters();
  const StealCounters s = stealing ? stealing->counters() : StealCounters{};
  const PoolCounters p = threads ? threads->counters() : PoolCounters{};
  std::uint64_t mine[16] = {
      table.local_nodes(), t.lookups, t.chunks, t.compared, t.cas_failed, r.operations,
      r.round_trips,       c.lookups, c.hits,   s.spawned,  s.steals,     s.attempts,
      s.leapfrogs,         p.spawned, p.steals, p.leapfrogs};
  std::uint64_t sum[16] = {};
  MPI_Reduce(mine, sum, 16, MPI_UINT64_T, MPI_SUM, 0, team);
  return Totals{sum[0], sum[1], sum[2],  sum[3],  sum[4],  sum[5],  sum[6],  sum[7],
                sum[8], sum[9], sum[10], sum[11], sum[12], sum[13], sum[14], sum[15]};
}

/// The cores this rank may use: those it is bound to, or its share of the
/// node's when it is not bound (its ranks run on the same cores).
unsigned cores_of_rank(MPI_Comm team) {
  const unsigned machine = std::max(1u, std::thread::hardware_concurrency());
  unsigned cores = machine;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0)
    cores = static_cast<unsigned>(CPU_COUNT(&set));
  if (cores >= machine) {
    MPI_Comm node;
    MPI_Comm_split_type(team, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int here = 1;
    MPI_Comm_size(node, &here);
    MPI_Comm_free(&node);
    cores /= static_cast<unsigned>(here);
  }
  return std::clamp(cores, 1u, static_cast<unsigned>(kMaxThreads));
}

double per(std::uint64_t a, std::uint64_t b) { return b ? static_cast<double>(a) / b : 0.0; }

} // namespace

std::string run_reach(MPI_Comm team, const ReachOptions &o, std::FILE *progress) {
  int member = 0, members = 1;
  MPI_Comm_rank(team, &member);
  MPI_Comm_size(team, &members);
  const Access access = parse_access(o.access);
  const std::size_t table_bytes = static_cast<std::size_t>(o.table_mib) << 20;
  const std::size_t cache_bytes =
      o.cache_mib ? static_cast<std::size_t>(o.cache_mib) << 20 : table_bytes / 8;
  std::uint64_t model_nodes = 0;
  const std::optional<ModelFile> file = read_model(team, o, model_nodes);
  // BFS and chaining grow the table between levels; saturation has no
  // levels and takes the whole budget at once.
  NodeTable table(team, table_bytes, static_cast<unsigned>(o.chunk), access,
                  o.strategy == "sat" ? ~0ull : model_nodes);
  OperationCache cache(team, cache_bytes, access);
  Manager manager(table, cache);

  const Model model = share_model(team, manager, file);
  // Threads of a rank: the model is made, by member 0 alone, before they
  // start. They reach the table and the cache with CPU atomics only.
  std::optional<ThreadTeam> threads;
  const unsigned thread_count =
      o.threads ? static_cast<unsigned>(o.threads)
                : (table.memory().access() == Access::Shared && !o.steal ? cores_of_rank(team) : 1);
  if (thread_count > 1) {
    if (table.memory().access() != Access::Shared)
      throw std::runtime_error("--threads above 1 needs shared access, and the ranks are not "
                               "on one node");
    threads.emplace(manager, thread_count, static_cast<unsigned>(o.spawn_depth));
  }
  LevelReport report;
  if (o.progress && member == 0)
    report = [&](unsigned level, Edge visited) {
      fmt::print(progress, "level {}: {} states, {} nodes\n", level,
                 manager.count(visited, model.state_variables).to_string(),
                 manager.node_count(visited));
      std::fflush(progress);
    };
  const auto start = std::chrono::steady_clock::now();
  // Chaining and saturation compute on member 0; the others steal.
  std::optional<WorkStealing> stealing;
  if (members > 1 && o.strategy != "bfs" && o.steal)
    stealing.emplace(team, access, [&](const Task &task) { return manager.run(task); });
  std::optional<GarbageCollector> collector;
  if (o.gc && o.strategy != "sat")
    collector.emplace(team, table, cache);
  const ReachResult result = reach(manager, model, parse_strategy(o.strategy), team, report,
                                   collector ? &*collector : nullptr,
                                   stealing ? &*stealing : nullptr, threads ? &*threads : nullptr);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MPI_Barrier(team); // every member's counters are final
  const Totals totals = gather_totals(team, table, cache, stealing ? &*stealing : nullptr,
                                      threads ? &*threads : nullptr);
  if (member != 0)
    return "";

  std::string text = fmt::format("states: {}\nnodes: {}\n",
                                 manager.count(result.states, model.state_variables).to_string(),
                                 manager.node_count(result.states));
  if (o.strategy == "bfs")
    text += fmt::format("depth: {}\n", result.depth);
  else if (o.strategy == "chain")
    text += fmt::format("sweeps: {}\n", result.depth);
  text += fmt::format("time: {:.3f} s\n", seconds);
  text += fmt::format("table: {} nodes in {} buckets ({:.1f}% full) on {} rank{}, {} access\n",
                      totals.nodes, table.buckets_in_use(),
                      100.0 * per(totals.nodes, table.buckets_in_use()), members,
                      members == 1 ? "" : "s", access_name(table.memory().access()));
  text += fmt::format(
      "probes: {} lookups, {:.3f} chunks and {:.3f} compares per lookup (chunk {}), "
      "{} lost claims, {:.2f} one-sided round trips per lookup, cache hits {:.1f}%\n",
      totals.lookups, per(totals.chunks, totals.lookups), per(totals.compared, totals.lookups),
      table.chunk(), totals.cas_failed, per(totals.round_trips, totals.lookups),
      100.0 * per(totals.cache_hits, totals.cache_lookups));
  if (collector) {
    const CollectionCounters &gc = collector->counters();
    text += fmt::format("gc: {} collections in {:.3f} s, {} nodes kept by the last\n",
                        gc.collections, gc.seconds, gc.live);
  }
  if (stealing)
    text += fmt::format("steals: {} of {} spawned tasks, {} attempts, {} leapfrogs\n",
                        totals.steals, totals.spawned, totals.attempts, totals.leapfrogs);
  text += fmt::format("threads: {} per rank, {} of {} spawned tasks stolen, {} leapfrogs\n",
                      thread_count, totals.thread_steals, totals.thread_spawned,
                      totals.thread_leapfrogs);
  return text;
}

} // namespace bdd
