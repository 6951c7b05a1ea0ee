#pragma once
/// \file
/// Spawned hosts (docs/runtime.md section 11): the parent's side
/// (SpawnedHosts), the spawned side's start, and the end of their links.

#include "engine.hpp"

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <mpi.h>

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
/// so that the parent can tell when it dies (SpawnedHosts::check_alive).
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

  /// A heartbeat (Kind::heartbeat) came from spawned host `host`.
  void heard_from(int host, HostLock &lk);
  /// Spawned host `host` reported that it is done (Kind::shutdown_done):
  /// it sends no more heartbeats and may end once the job finishes.
  void reported_done(int host, HostLock &lk);

  /// Ends the job, naming the host, if a host this one spawned has died or
  /// stopped: its process is gone (on this node), or nothing came from it
  /// for silence_limit() while this host polled (on any node: a host that
  /// is stopped, hung in the kernel or cut off). Open MPI reports a lost
  /// peer but the links to it never fail, so whoever waited for that host
  /// would wait forever. Run by the engine's poller (Progress's watchdog).
  void check_alive(HostLock &lk);

  /// An MPI call with host `host` failed (`failure` says how; see
  /// PeerFailures): if this host spawned it, ends the job naming it. On
  /// this node the failure may come before the host's process has quite
  /// ended (its links close first): it waits, bounded by silence_limit(),
  /// to report the death as one. Returns for any other host.
  void peer_failed(int host, const std::string &failure, HostLock &lk);

private:
  /// A spawned host: its number, its OS process (where it runs), when
  /// this host last heard from it, and whether it reported that it is done.
  struct Child {
    int host;
    std::string node;
    pid_t pid;
    std::chrono::steady_clock::time_point heard;
    bool done = false;
  };
  /// Reports that `c` `what` and aborts the job, killing `c`'s process
  /// first if `kill_it` (it runs on this node).
  [[noreturn]] void end_job_for(const Child &c, const std::string &what, bool kill_it) const;
  /// True if `c` runs on this node.
  static bool here(const Child &c);
  /// The spawned host numbered `host`, or null if this host did not spawn it.
  Child *child(int host) noexcept;

  Engine &engine_;
  int job_hosts_;
  std::vector<Child> children_;
  /// The last check_alive: silence counts only while this host polls.
  std::chrono::steady_clock::time_point checked_;
  /// Numbers used so far, including those of failed spawns.
  int numbers_used_ = 0;
  bool refusing_ = false;
};

/// A spawned host's signs of life: a thread that sends its parent a
/// heartbeat every second until stop(), whatever the host's own threads
/// are doing (all of them may be busy in methods for hours).
class Heartbeat {
public:
  /// Starts beating to `parent` through `engine`.
  Heartbeat(Engine &engine, int parent);
  ~Heartbeat() { stop(); }
  Heartbeat(const Heartbeat &) = delete;
  Heartbeat &operator=(const Heartbeat &) = delete;
  /// Stops beating (before the host reports that it is done, so that no
  /// heartbeat follows its last message); idempotent.
  void stop();

private:
  void beat(Engine &engine, int parent);

  std::mutex mutex_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
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
