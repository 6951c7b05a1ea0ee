#pragma once
/// \file
/// A host: one MPI rank's share of the job. Owns the processes hosted here
/// (each with a mailbox and a pool thread), routes what the engine
/// receives, tracks the caller contexts that wait for replies and
/// acknowledgements, counts barrier arrivals, and runs the shutdown
/// protocol. All state is guarded by the engine's mutex.

#include "connections.hpp"
#include "engine.hpp"

#include <poc/errors.hpp>
#include <poc/gen/registration.hpp>
#include <poc/message.hpp>
#include <poc/persist/lease.hpp>
#include <poc/persist/store.hpp>
#include <poc/process_id.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace poc::detail {

class ReplySlot {
public:
  std::uint64_t token = 0;
  /// The host the request went to (its connection is released on reply).
  int peer = -1;
  /// Caller context to credit when the reply arrives (started futures), 0 = none.
  std::uint64_t context = 0;
  bool arrived = false;
  bool taken = false;
  std::unique_ptr<Message> message;
};

/// Who is calling: the main program or one process. Started calls are
/// tracked per context so that poc::sync() waits for exactly the caller's
/// own work.
struct Context {
  std::uint64_t id = 0;
  /// Started requests not yet acknowledged (or replied, for futures).
  std::int64_t outstanding = 0;
  /// Errors of acknowledged started requests, reported by the next sync().
  std::vector<std::exception_ptr> errors;
  /// Local tasks (start of a local function) still running / finished.
  int tasks_running = 0;
  std::vector<std::thread> tasks;
  /// The process this context belongs to (its calls to itself run
  /// directly), and its object once constructed.
  ProcessId self;
  const ClassInfo *cls = nullptr;
  void *object = nullptr;
};

/// One process hosted here.
struct Process {
  enum class State { constructing, live, failed, ended };
  ProcessId id;
  const ClassInfo *cls = nullptr;
  void *object = nullptr;
  State state = State::constructing;
  std::string failure;
  std::deque<std::unique_ptr<Message>> mailbox;
  Context context;
  /// Per caller (rank, context): started requests queued, and executed but
  /// not yet acknowledged (with their errors).
  struct AckState {
    int queued = 0;
    std::uint64_t executed = 0;
    std::vector<std::pair<std::string, std::string>> errors;
  };
  std::map<std::pair<int, std::uint64_t>, AckState> acks;
  /// Executed started requests not yet acknowledged (all callers).
  std::uint64_t unacked = 0;
  /// A persistent process: its address and the lease held while it is active.
  struct Persistent {
    persist::Address address;
    persist::Lease lease;
  };
  std::optional<Persistent> persistent;
};

class Host {
public:
  /// `job_hosts`: the number of ranks of the job that started the program
  /// (bounds the host numbers of valid process ids).
  Host(Engine &engine, int job_hosts);
  ~Host();
  Host(const Host &) = delete;
  Host &operator=(const Host &) = delete;

  Engine &engine() noexcept { return engine_; }
  /// This host's number.
  int rank() const noexcept { return engine_.rank(); }
  Connections &connections() noexcept { return connections_; }
  /// Ranks of the job that started the program.
  int job_hosts() const noexcept { return job_hosts_; }

  /// Starts `count` hosts with one MPI_Comm_spawn on `hostname` (empty:
  /// wherever MPI places them) and returns their numbers. Only the job's
  /// own ranks spawn (usage_error elsewhere); a host name that does not
  /// resolve is a usage_error, a failed spawn a std::runtime_error.
  std::vector<int> spawn_hosts(const std::string &hostname, int count);

  /// The context of the calling thread (the main program's if the thread
  /// belongs to no process).
  Context &current_context();
  /// Makes `ctx` the calling thread's context (local tasks).
  static void adopt_context(Context *ctx) noexcept;

  /// A new reply slot (registered) for a request about to be sent.
  std::shared_ptr<ReplySlot> new_reply_slot(std::uint64_t context_to_credit);
  /// Forgets a slot whose reply was consumed or will never be awaited.
  void drop_reply_slot(std::uint64_t token);

  /// Picks a fresh id for a process the caller creates on `host`.
  ProcessId new_process_id(int host);

  /// Tells the coordinator host of a group that a member (of `members`)
  /// reached barrier (key, epoch).
  void arrive_barrier(int coordinator, std::uint64_t key, std::uint64_t epoch,
                      std::uint64_t members);
  /// Waits (with `lk`) until the barrier (key, epoch) is released here;
  /// throws remote_error if it was abandoned.
  void wait_barrier(std::unique_lock<std::mutex> &lk, std::uint64_t key, std::uint64_t epoch);
  /// Tells the coordinator host of a group that a member will not reach
  /// barrier `epoch` (nor later ones); `text` is the error waiting members get.
  void abandon_barriers(int coordinator, std::uint64_t key, std::uint64_t epoch,
                        const std::string &text);

  /// Rank 0: ends the job after the program body returned.
  void end_job();
  /// Other ranks: serve until rank 0 ends the job.
  void serve_until_finished();
  /// Joins all threads; call after end_job/serve_until_finished.
  void join_all();

  /// True once the job is ending (requests are refused).
  bool stopping() const noexcept { return stopping_; }

  /// The object store of persistent processes (Store::default_root(),
  /// opened on first use). Throws store_error(no_root).
  const persist::Store &store();

  /// Sends a reply with an exception to (source, token).
  void send_error_reply(int dest, std::uint64_t token, const std::string &type,
                        const std::string &message);

  /// A control message (mutex held) with an optional text payload, on
  /// `via` if given (connection handshakes), else routed to host `dest`.
  void send_control(int dest, Kind kind, std::uint64_t method, std::uint64_t aux,
                    std::uint64_t context, const std::string *text = nullptr,
                    Status status = Status::ok, const Link *via = nullptr);

private:
  struct Worker {
    std::thread thread;
    std::condition_variable cv;
    Process *assigned = nullptr;
    bool exit = false;
  };

  void route(int source, int tag, std::vector<std::byte> bytes, const std::shared_ptr<Link> &link);
  void route_request(std::unique_ptr<Message> m, std::vector<std::unique_ptr<Message>> &dead);
  void route_reply(std::unique_ptr<Message> m);
  void route_ack(const Message &m);
  void route_control(const Message &m);
  void enqueue(Process &p, std::unique_ptr<Message> m);
  void reject(std::unique_ptr<Message> m, const std::string &type, const std::string &text,
              std::vector<std::unique_ptr<Message>> &dead);
  void start_process(Process &p);
  /// Adds process `h.target` of class `cls` and queues its first request.
  void add_process(const ClassInfo &cls, std::unique_ptr<Message> m);
  /// The constructed or restored object becomes the process's.
  void make_live(Process &p, void *object);
  /// Executes activate, persist_create and checkpoint; true if the process ended.
  bool execute_persistence(Process &p, const Message &m, Request &rq, Writer &out);
  /// Saves an active persistent process and gives up its lease (job end).
  void deactivate(Process &p) noexcept;
  void worker_main(Worker *w);
  void serve(Process &p, std::unique_lock<std::mutex> &lk);
  bool execute(Process &p, Message &m);
  void finish_started(Process &p, const Message &m, const std::string *type,
                      const std::string *text);
  void flush_acks(Process &p, bool all);
  void send_ack(int dest, std::uint64_t context, std::uint64_t count,
                const std::vector<std::pair<std::string, std::string>> &errors);
  /// Coordinator: fails the pending barriers of group `key` from `epoch` on.
  void fail_barriers_locked(std::uint64_t key, std::uint64_t epoch, const std::string &text);
  /// Reports a failed method or a deletion of a group member to its group.
  void abandon_if_member(const Process &p, const std::string &event) noexcept;
  void begin_shutdown_locked();
  /// The end of serving: waits for this host's process threads, closes
  /// its connections and waits for the hosts that report to it.
  void drain_locked(std::unique_lock<std::mutex> &lk);
  /// Hosts that report done to this one: its children, and on rank 0 the
  /// job's other ranks.
  std::size_t reporting_hosts_locked() const;

  Engine &engine_;
  int job_hosts_;
  Connections connections_;
  /// A host this host spawned: its number, and its OS process (where it
  /// runs), so that its death can be noticed.
  struct Child {
    int host;
    std::string node;
    pid_t pid;
  };
  /// Hosts this host spawned, and the numbers used so far (including
  /// those of failed spawns), both guarded by the mutex.
  std::vector<Child> children_;
  int spawned_numbers_ = 0;
  /// Ends the job, naming the host, if a host this one spawned on its own
  /// node has died (its process is gone while the job runs): Open MPI
  /// reports the death but the links to it never fail, so whoever waits
  /// for that host would wait forever. Run by the engine's poller.
  void check_spawned_hosts_locked();

  std::unordered_map<ProcessId, std::unique_ptr<Process>> processes_;
  std::unordered_map<ProcessId, std::deque<std::unique_ptr<Message>>> pending_;
  std::unordered_set<ProcessId> ended_;
  int running_threads_ = 0;

  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<Worker *> idle_workers_;

  Context main_context_;
  std::unordered_map<std::uint64_t, Context *> contexts_;
  std::uint64_t next_context_ = 2;

  std::unordered_map<std::uint64_t, std::shared_ptr<ReplySlot>> slots_;
  std::uint64_t next_token_ = 1;
  std::atomic<std::uint64_t> next_serial_{1};

  /// Barrier arrivals counted here (coordinator): (key, epoch) ->
  /// arrivals per member host.
  struct Arrivals {
    std::uint64_t count = 0;
    std::uint64_t size = 0;
    std::map<int, std::uint64_t> per_host;
  };
  std::map<std::pair<std::uint64_t, std::uint64_t>, Arrivals> arrivals_;
  /// Releases received here: (key, epoch) -> members still to pass.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> released_;
  /// Coordinator: groups a member abandoned, key -> the first barrier epoch
  /// that cannot complete and the error for it. Kept for the job's lifetime:
  /// a later arrival at that barrier fails at once.
  struct Abandoned {
    std::uint64_t epoch = 0;
    std::string text;
  };
  std::map<std::uint64_t, Abandoned> abandoned_;
  /// Failed releases received here: (key, epoch) -> members still to fail, error.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::pair<std::uint64_t, std::string>> failed_;

  /// Refused messages whose out-of-band blocks are drained later, outside
  /// the mutex.
  std::vector<std::unique_ptr<Message>> graveyard_;
  std::mutex store_mu_;
  std::unique_ptr<persist::Store> store_;
  bool stopping_ = false;
  bool finished_ = false;
  std::size_t hosts_done_ = 0;
};

/// The host of the calling rank; throws usage_error outside poc::run.
Host &host();
/// Installs (or with nullptr removes) the host that host() returns.
void set_host(Host *h) noexcept;

/// Builds the wire header of an outgoing message into the writer's first
/// bytes (reserved by begin_message).
void patch_header(Writer &w, const WireHeader &h);

} // namespace poc::detail
