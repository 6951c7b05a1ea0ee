#pragma once
/// \file
/// The callers on one host: the main program and each process, as caller
/// contexts that count their started requests for poc::sync(), and the
/// reply slots where the replies of their requests arrive. Guarded by the
/// engine's mutex.

#include "transport/engine.hpp"

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace poc::detail {

struct ClassInfo;

/// An error of a started call or local task, kept for its caller's next
/// poc::sync().
struct StartedError {
  std::exception_ptr error;
  /// What was started ("ns::T::f", "a started local function"), for the
  /// report of an error nobody waited for (report_unwaited_errors).
  std::string call;
};

/// Reports on standard error each of `errors`, which nobody will wait for
/// any more (`whose`: whose calls they were), and makes the program's exit
/// status non-zero (unwaited_errors_reported).
void report_unwaited_errors(const std::vector<StartedError> &errors, const std::string &whose);
/// True once report_unwaited_errors reported an error on this host.
bool unwaited_errors_reported() noexcept;
/// The main program has returned: waits for the calls it started on local
/// objects and the local functions it started (not for its calls to
/// processes, which the end of the job ends).
void finish_main_tasks();
/// The job has ended: reports the errors of the main program's started
/// calls that it never waited for.
void report_main_errors();

/// Where the reply to one request arrives.
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
  /// The call, as generated code names it ("ns::C::f"), for the error of a
  /// call that reached a deleted process; null if not named.
  const char *what = nullptr;
};

/// A context's started requests to one host that are not acknowledged
/// yet. The host counts them as they finish and acknowledges them when
/// asked (Completions).
struct Unacknowledged {
  int host = -1;
  std::int64_t count = 0;
  /// An ack_query for them is on its way, and its acknowledgement not back.
  bool asked = false;
};

/// Who is calling: the main program or one process. Started calls are
/// tracked per context so that poc::sync() waits for exactly the caller's
/// own work.
struct Context {
  std::uint64_t id = 0;
  /// Started requests not yet acknowledged (or replied, for futures).
  std::int64_t outstanding = 0;
  /// Of those, the ones a host acknowledges when asked (all but futures'),
  /// per host they went to (a short list: a caller talks to few hosts).
  std::vector<Unacknowledged> unacknowledged;
  /// Errors of acknowledged started requests and of local tasks, reported
  /// by the next sync().
  std::vector<StartedError> errors;
  /// Local tasks (start of a local function) still running / finished.
  int tasks_running = 0;
  std::vector<std::thread> tasks;
  /// The process this context belongs to (its calls to itself run
  /// directly), and its object once constructed.
  ProcessId self;
  const ClassInfo *cls = nullptr;
  void *object = nullptr;
  /// The process's track in the trace (POC_TRACE); 0: the thread's own.
  std::int32_t trace_track = 0;
};

class Callers {
public:
  explicit Callers(Engine &engine);

  /// The context of the calling thread (the main program's if the thread
  /// belongs to no process).
  Context &current() noexcept;
  /// Makes `ctx` the calling thread's context (a process's thread, a local
  /// task; null: the main program's); returns the one it had.
  static Context *adopt(Context *ctx) noexcept;
  /// The main program's context.
  Context &main() noexcept { return main_; }

  /// Gives `ctx` an id and registers it.
  void add(Context &ctx, HostLock &lk);
  /// Forgets `ctx`, and asks for the acknowledgement of its started
  /// requests at once: their errors are reported as nobody's
  /// (report_unwaited_errors).
  void remove(Context &ctx, HostLock &lk);

  /// A new reply slot (registered) for a request to `peer` about to be
  /// sent; its reply credits `context_to_credit` (0: none).
  std::shared_ptr<ReplySlot> new_reply_slot(int peer, std::uint64_t context_to_credit);
  /// Forgets a slot whose reply was consumed or will never be awaited.
  void drop_reply_slot(std::uint64_t token);
  /// Registers `slot`, which lives on the stack of a caller that waits for
  /// its reply (a synchronous request), and gives it a token. Neither it
  /// nor its registration is allocated: a synchronous call is the path
  /// every round trip takes. The caller must remove it before it goes
  /// away (WaitingSlot does), unless its reply arrived, which removes it.
  void add_waiting_slot(ReplySlot &slot, HostLock &lk);
  /// Unregisters a slot of add_waiting_slot whose caller stops waiting
  /// before its reply arrived. If its request was `sent`, a slot on the
  /// heap takes its place, so that the reply, when it comes, is dropped
  /// without a word and releases the connection, as any reply does.
  void abandon_waiting_slot(const ReplySlot &slot, bool sent, HostLock &lk);

  /// A reply arrived: its slot gets it. Returns the host the request went
  /// to, or -1 if no slot waits for it (reported, dropped).
  int on_reply(std::unique_ptr<Message> m, HostLock &lk);
  /// An acknowledgement arrived: credits its context and keeps the errors
  /// for its next sync().
  void on_ack(const Message &m, HostLock &lk);
  /// A started request of `ctx` to `host` is about to leave: it counts in
  /// the context's outstanding work and in the host's until it is
  /// answered: `replied` (it has a future) or acknowledged.
  void count_started(Context &ctx, int host, bool replied, HostLock &lk);
  /// A request count_started counted did not leave (its send threw).
  void uncount_started(Context &ctx, int host, bool replied, HostLock &lk);
  /// Asks each host that has unacknowledged requests of `ctx`, and was not
  /// asked yet, to acknowledge them once they have finished.
  void ask(Context &ctx, HostLock &lk);
  /// True if `ctx` has unacknowledged requests that ask would ask for.
  bool must_ask(const Context &ctx, HostLock &) const noexcept;
  /// ask for every context, ended ones included.
  void ask_all(HostLock &lk);
  /// True if ask_all would ask for something.
  bool must_ask_any(HostLock &) const noexcept { return unasked_ > 0; }
  /// True once every started request sent from this host, by any context,
  /// ended ones included, has been acknowledged or answered.
  bool all_started_answered(HostLock &) const noexcept { return unanswered_ <= 0; }
  /// Names request member `member` (a method's or a constructor's id) as
  /// `what` ("ns::T::f"), for the errors of started requests.
  void name_member(std::uint64_t member, const char *what, HostLock &lk);

private:
  /// Unregisters and returns the slot with `token`, or null; `owner`
  /// keeps a slot of new_reply_slot alive.
  ReplySlot *take_slot(std::uint64_t token, std::shared_ptr<ReplySlot> &owner);

  /// Sends the ack_queries of `list` that are due.
  void ask(std::uint64_t context, std::vector<Unacknowledged> &list, HostLock &lk);
  /// `finished` requests in `list` (a context's, live or ended) to `host`
  /// were acknowledged; an entry with none left is removed.
  void forget_acknowledged(std::vector<Unacknowledged> &list, int host, std::int64_t finished);

  Engine &engine_;
  Context main_;
  std::unordered_map<std::uint64_t, Context *> contexts_;
  /// The unacknowledged requests of contexts that have ended, until their
  /// acknowledgements arrive.
  std::unordered_map<std::uint64_t, std::vector<Unacknowledged>> ended_;
  /// Entries of Unacknowledged, live and ended, with requests not asked
  /// for.
  std::int64_t unasked_ = 0;
  /// Started requests sent from this host and not yet answered, over all
  /// contexts (count_started).
  std::int64_t unanswered_ = 0;
  std::uint64_t next_context_ = 2;
  /// Tokens of slots in waiting_slots_ have this bit set, so a reply
  /// finds its table without a lookup in the other.
  static constexpr std::uint64_t kWaitingToken = std::uint64_t{1} << 63;
  std::unordered_map<std::uint64_t, std::shared_ptr<ReplySlot>> slots_;
  /// The slots of synchronous requests: at most one per waiting thread, so
  /// a short list searched from its end (the latest caller first).
  std::vector<ReplySlot *> waiting_slots_;
  std::uint64_t next_token_ = 1;
  std::unordered_map<std::uint64_t, std::string> member_names_;
};

} // namespace poc::detail
