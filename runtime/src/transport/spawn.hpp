#pragma once
/// \file
/// Spawned hosts (docs/runtime.md section 11): the parent's side
/// (SpawnedHosts), the spawned side's start, and the end of their links.

#include "engine.hpp"

#include <sys/types.h>

#include <cstddef>
#include <string>
#include <vector>

#include <mpi.h>

#include <cstdint>

namespace poc::detail {

/// What a parent tells each host it spawned, before either side's engine
/// polls (kHelloTag on the parent/children intercommunicator).
struct Hello {
  std::int32_t base = 0;        ///< host number of the batch's world rank 0
  std::int32_t parent = -1;     ///< host number of the parent
  std::int32_t job_hosts = 0;   ///< ranks of the job that started the program
  std::int32_t cache_limit = 0; ///< the parent's connection cache limit
};

/// What each spawned host answers its parent's Hello with: where it runs,
/// so that the parent can tell when it dies (Host::check_spawned_hosts).
struct HelloReply {
  std::int32_t pid = 0;
  char node[64] = {};
};

/// The hosts this host spawned: starting them, and noticing their death.
/// Guarded by the host mutex.
class SpawnedHosts {
public:
  /// `job_hosts`: the ranks of the job that started the program.
  SpawnedHosts(Engine &engine, int job_hosts);

  /// Starts `count` hosts with one MPI_Comm_spawn on `hostname` (empty:
  /// wherever MPI places them), links them and returns their numbers.
  /// `cache_limit`: the connection cache limit they take on. Only the
  /// job's own ranks spawn (usage_error elsewhere, and once the job is
  /// ending); a host name that does not resolve is a usage_error, a failed
  /// spawn a std::runtime_error.
  std::vector<int> spawn(const std::string &hostname, int count, std::size_t cache_limit);

  /// The numbers of the hosts spawned so far.
  std::vector<int> hosts(HostLock &lk) const;
  /// The job is ending: spawn refuses.
  void refuse_new(HostLock &) noexcept { refusing_ = true; }

  /// Ends the job, naming the host, if a host spawned on this node has
  /// died (its process is gone while the job runs): Open MPI reports the
  /// death but the links to it never fail, so whoever waited for that host
  /// would wait forever. Run by the engine's poller.
  void check_alive(HostLock &lk) const;

private:
  /// A spawned host: its number, and its OS process (where it runs).
  struct Child {
    int host;
    std::string node;
    pid_t pid;
  };
  Engine &engine_;
  int job_hosts_;
  std::vector<Child> children_;
  /// Numbers used so far, including those of failed spawns.
  int numbers_used_ = 0;
  bool refusing_ = false;
};

/// Remembers the program's arguments (spawned hosts run the same program
/// with the same arguments).
void remember_arguments(int argc, char **argv);

/// A spawned host's first step, collective with its parent and siblings:
/// duplicates `parent` for out-of-band blocks, receives the Hello and
/// answers it (HelloReply).
/// Returns the link to the parent (add it once the engine exists).
std::shared_ptr<Link> join_parent(MPI_Comm parent, Hello &hello);

/// The last step of a job with spawned hosts, after every host finished
/// (section 8): disconnects the parent/children links (collective with
/// the other side) and frees any connection left open.
void disconnect_links(Engine &engine);

} // namespace poc::detail
