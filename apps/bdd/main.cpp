//===- main.cpp - bdd-reach: distributed symbolic reachability ------------===//
///
/// bdd-reach [--strategy bfs|chain|sat] [--format auto|sylvan|2014]
///           [--table-mib N] [--progress] MODEL.bdd
///           (and --cache-mib, --chunk, --access, --steal, --gc, --threads,
///           --spawn-depth: docs/bdd.md)
///
/// One BddWorker per rank of the job (bare: one), in a process group; the
/// workers share the node table and operation cache through MPI windows.
/// docs/bdd.md describes the design and the output.
///
//===----------------------------------------------------------------------===//
#include "worker.hpp"

#include <bdd/reachability.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

/// A bare bdd-reach is an MPI singleton whose one worker runs on its own
/// rank: it spawns nothing. Open MPI's singleton still starts its daemon
/// (orted) in MPI_Init in case it will, which was 0.2 s of every bare run's
/// wall time (bench/RESULTS.md, issue 40). So a bare run asks for no daemon
/// before MPI_Init (static initialisation precedes main, where poc::run
/// initialises MPI), unless a machine or a host capacity is configured:
/// with those the runtime may spawn hosts. Under a launcher the process is
/// no singleton and the setting is not read; one given in the environment
/// is kept.
struct SingletonWithoutDaemon {
  SingletonWithoutDaemon() {
    for (const char *spawning : {"POC_MACHINES", "POC_MACHINEFILE", "POC_HOST_CAPACITY"})
      if (const char *value = std::getenv(spawning); value && *value)
        return;
    setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
  }
};
const SingletonWithoutDaemon singleton_without_daemon;

} // namespace

int main(int argc, char **argv) {
  bdd::ReachOptions o;
  try {
    o = bdd::parse_reach_options(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const bdd::OptionError &e) {
    std::fprintf(stderr, "bdd-reach: %s\n%s", e.what(), bdd::reach_usage());
    return 2;
  }
  if (o.help) {
    std::printf("%s", bdd::reach_usage());
    return 0;
  }

  // One worker per rank: worker i is member i of the team and runs on rank
  // i, where it owns that rank's share of the table and the cache.
  const int ranks = poc::job_ranks();
  std::vector<BddWorker *> team;
  for (int i = 0; i < ranks; ++i)
    team.push_back(new (poc::rank_machine(i)) BddWorker(o));
  for (int i = 0; i < ranks; ++i)
    team[i]->SetProcessGroup(i, ranks, team.data());

  std::vector<poc::future<std::string>> runs(team.size());
  for (std::size_t i = 0; i < team.size(); ++i)
    runs[i] = start team[i]->run();
  std::string report, failure;
  bool cause_known = false;
  for (auto &run : runs) {
    try {
      std::string text = run.get();
      if (!text.empty())
        report = text;
    } catch (const poc::remote_error &e) {
      // The member that failed says why; the others only that they stopped.
      const bool cause = !e.is<bdd::PeerFailed>();
      if (failure.empty() || (cause && !cause_known))
        failure = e.message();
      cause_known = cause_known || cause;
    }
  }
  for (BddWorker *w : team)
    delete w;
  if (!failure.empty()) {
    std::fprintf(stderr, "bdd-reach: %s\n", failure.c_str());
    return 1;
  }
  std::printf("%s", report.c_str());
  return 0;
}
