#pragma once
/// \file
/// A host: one MPI rank's (or spawned host's) share of the job, in the
/// process model. Owns the process table: the processes hosted here, each
/// with a mailbox, served by pool threads (a process has a thread only
/// while it has requests to run); routes what the transport
/// delivers to them, to the callers (replies, acknowledgements), to the
/// barriers and to the connections; and runs the shutdown protocol
/// (docs/runtime.md section 8). All state is guarded by the host mutex.

#include "barriers.hpp"
#include "callers.hpp"
#include "completions.hpp"
#include "process.hpp"
#include "thread_pool.hpp"
#include "transport/connections.hpp"
#include "transport/engine.hpp"
#include "transport/spawn.hpp"

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace poc::detail {

class Host {
public:
  /// `job_hosts`: the number of ranks of the job that started the program
  /// (bounds the host numbers of valid process ids). `extension` (may be
  /// null) executes the requests the process model does not (persistence).
  /// It is fixed here because the host serves requests from the moment its
  /// threads start, before the constructor returns.
  Host(Engine &engine, Connections &connections, int job_hosts, ProcessExtension *extension);
  ~Host();
  Host(const Host &) = delete;
  Host &operator=(const Host &) = delete;

  Engine &engine() noexcept { return engine_; }
  /// The host mutex, locked (the process model's state is under it too).
  HostLock lock() { return HostLock(engine_.progress()); }
  /// Returns (with `lk` held) once `pred()` holds, receiving meanwhile or
  /// sleeping as Progress::wait_until says.
  template <class Pred>
  void wait_until(HostLock &lk, Pred &&pred, WaitRole role = WaitRole::process) {
    engine_.progress().wait_until(lk, std::forward<Pred>(pred), role);
  }
  /// Wakes the waiters whose predicate now holds.
  void notify(HostLock &lk) { engine_.progress().notify(lk); }
  Connections &connections() noexcept { return connections_; }
  Callers &callers() noexcept { return callers_; }
  Barriers &barriers() noexcept { return barriers_; }
  /// This host's number.
  int rank() const noexcept { return engine_.rank(); }
  /// Ranks of the job that started the program.
  int job_hosts() const noexcept { return job_hosts_; }

  /// Starts `count` hosts on `hostname` (SpawnedHosts::spawn).
  std::vector<int> spawn_hosts(const std::string &hostname, int count);

  /// Picks a fresh id for a process the caller creates on `host`.
  ProcessId new_process_id(int host);

  /// The constructed or restored object becomes the process's.
  void make_live(Process &p, void *object);

  /// Rank 0: ends the job after the program body returned.
  void end_job();
  /// Other ranks: serve until rank 0 ends the job.
  void serve_until_finished();
  /// Joins all threads; call after end_job/serve_until_finished.
  void join_all();

  /// True once the job is ending (requests are refused); read it with the
  /// host mutex held, as the token says.
  const bool &stopping(HostLock &) const noexcept { return stopping_; }

private:
  /// What executing a request did, for finish().
  struct Executed {
    int source = -1;
    Kind kind = Kind::call;
    RequestHead head;
    std::optional<RemoteFailure> failure;
    /// Its reply was sent (by the method's Request).
    bool replied = false;
    /// The process ended.
    bool ended = false;
  };
  using Graves = std::vector<std::unique_ptr<Message>>;

  /// Routes what arrived on `link` (Engine::Router), under one lock.
  void route(std::span<std::unique_ptr<Message>> messages, const std::shared_ptr<Link> &link);
  void route_one(std::unique_ptr<Message> m, const std::shared_ptr<Link> &link, Graves &dead,
                 HostLock &lk);
  void route_request(std::unique_ptr<Message> m, Graves &dead, HostLock &lk);
  void route_shutdown(const Message &m, HostLock &lk);
  void enqueue(Process &p, std::unique_ptr<Message> m, HostLock &lk);
  /// The name of the method request `m` for `p` calls if it may run at
  /// once on the thread that received it, else null: a call of a
  /// POC_NONBLOCKING method, with no out-of-band blocks to wait for, to a
  /// live process that is idle (so nothing queued there, by its caller or
  /// another, goes before it), while the job is not ending.
  const char *in_place_method(const Process &p, const Message &m, HostLock &lk) const;
  /// Runs request `m` of `p`, a call of `method`, on this thread, in `p`'s
  /// caller context, with waiting forbidden (Progress::NoWaiting); what
  /// arrived for `p` meanwhile then gets a pool thread. Called by the poller
  /// from route(), so at most one runs in place per thread: it cannot poll,
  /// so it cannot receive another.
  void run_in_place(Process &p, std::unique_ptr<Message> m, const char *method, HostLock &lk);
  /// Gives `p` a pool thread for its queued requests (start_process) and
  /// wakes it, unless it is this thread, which serves it when it stops
  /// polling.
  void schedule(Process &p, HostLock &lk);
  /// Refuses request `m` with `why`: an error reply to its caller, or an
  /// error counted as finished (Completions); its out-of-band blocks are drained later from `dead`.
  void reject(std::unique_ptr<Message> m, const RemoteFailure &why, Graves &dead, HostLock &lk);
  /// Adds process `target` of class `cls` and queues its first request.
  void add_process(const ClassInfo &cls, std::unique_ptr<Message> m, HostLock &lk);
  /// Marks `p`, which has requests and no thread, served and gives it a
  /// pool thread (ThreadPool::assign; while the job ends, a busy one).
  void start_process(Process &p, HostLock &lk);
  /// Runs `p`'s queued requests on its pool thread; returns when its
  /// mailbox is empty, or after ending it.
  void serve(Process &p, HostLock &lk);
  /// Ends process `p`, whose requests stop here: refuses what is queued
  /// and removes it from the table.
  void end_process(Process &p, HostLock &lk);
  /// Executes one request on the process's thread (or in place: then the
  /// reply copies what it sends, so that nothing waits), without the host
  /// mutex; finish() then tells its caller what needs telling.
  Executed execute(Process &p, Message &m, bool in_place = false);
  /// Counts a started request as finished (Completions) or answers a
  /// failed one whose reply was not sent.
  void finish(const Executed &done, HostLock &lk);
  void send_failure_reply(int dest, std::uint64_t token, const RemoteFailure &why, HostLock &lk);
  /// Reports a failed method or a deletion of a group member to its group.
  void abandon_if_member(const Process &p, const std::string &event) noexcept;
  void begin_shutdown(HostLock &lk);
  /// The end of serving: waits until this host's processes have ended, closes
  /// its connections and waits for the hosts that report to it.
  void drain(HostLock &lk);
  /// Hosts that report done to this one: its children, and on rank 0 the
  /// job's other ranks.
  std::size_t reporting_hosts(HostLock &lk) const;
  void send_to_children(Kind kind, HostLock &lk);

  Engine &engine_;
  Connections &connections_;
  int job_hosts_;
  /// False with POC_RUN_IN_PLACE=0: every request is queued for a pool
  /// thread, also those of POC_NONBLOCKING methods (for measurements).
  const bool in_place_allowed_;
  ProcessExtension *const extension_;
  SpawnedHosts spawned_;
  /// A spawned host's heartbeat to its parent (none on the job's ranks).
  std::optional<Heartbeat> heartbeat_;
  Callers callers_;
  /// The started requests finished here, until their callers ask.
  Completions completions_;
  Barriers barriers_;

  // The process table.
  std::unordered_map<ProcessId, std::unique_ptr<Process>> processes_;
  /// Requests for processes whose creation has not arrived yet.
  std::unordered_map<ProcessId, std::deque<std::unique_ptr<Message>>> pending_;
  /// Processes that have ended, with their class's name (for the errors
  /// of calls that reach them afterwards).
  std::unordered_map<ProcessId, std::string> ended_;
  std::atomic<std::uint64_t> next_serial_{1};

  /// The threads that serve processes; its threads call serve().
  ThreadPool threads_;

  // Shutdown.
  bool stopping_ = false;
  bool finished_ = false;
  std::size_t hosts_done_ = 0;
  /// Refused messages whose out-of-band blocks are drained at the end,
  /// outside the mutex.
  Graves graveyard_;
};

/// The host of the calling rank (the one Host that exists, from the start
/// of its constructor to the end of its destructor); throws usage_error
/// outside poc::run.
Host &host();
/// True while that host exists: the runtime serves, so work started now
/// is ordered and awaited by it (the process model's own answer to
/// poc::running(), which belongs to the layer above).
bool host_exists() noexcept;

} // namespace poc::detail
