#include "host.hpp"

#include "affinity.hpp"
#include "arena.hpp"
#include "request_trace.hpp"
#include "transport/call_probes.hpp"

#include <fmt/format.h>
#include <poc/gen/request.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace poc::detail {
namespace {

/// The most started calls a process's thread runs between two locks of
/// the host mutex.
constexpr std::size_t kServeRun = 64;
/// Idle pool threads kept for fast creation.
constexpr std::size_t kPrespawnedWorkers = 2;

/// Atomic: threads of the program's own may ask (host_exists) while the
/// host is made or goes away.
std::atomic<Host *> g_host{nullptr};

bool is_started(Kind k) { return k == Kind::start || k == Kind::start_create; }
bool is_creation(Kind k) { return k == Kind::create || k == Kind::start_create; }
bool is_call(Kind k) { return k == Kind::call || k == Kind::start || k == Kind::start_future; }

/// POC_RUN_IN_PLACE: 1 (the default) or 0; another value ends the job.
bool run_in_place_allowed() {
  const char *v = std::getenv("POC_RUN_IN_PLACE");
  if (!v || std::strcmp(v, "1") == 0)
    return true;
  if (std::strcmp(v, "0") == 0)
    return false;
  throw usage_error(fmt::format("poc: POC_RUN_IN_PLACE={} is neither 0 nor 1", v));
}

/// Sends the reply of a request while the request's data is alive: waiting
/// for its out-of-band blocks (Sending::keep), or copying them when the
/// replying thread must not wait (Sending::copy).
class ReplySender final : public Responder {
public:
  ReplySender(Engine &engine, const Message &m, Sender::Sending how)
      : engine_(engine), m_(m), how_(how) {}
  void respond(Writer &reply) override {
    const std::uint64_t token = m_.head<RequestHead>().reply_token;
    if (!token)
      return;
    POC_PROBE(reply_sending);
    auto batch = engine_.sender().send_writer(m_.source(), Kind::reply,
                                              ReplyHead{token, Status::ok}, reply, how_);
    POC_PROBE(reply_sent);
    sent_ = true;
    if (!batch)
      return;
    HostLock lk(engine_.progress());
    engine_.progress().wait_until(lk, [&] { return batch->pending == 0; });
  }
  bool sent() const noexcept { return sent_; }

private:
  Engine &engine_;
  const Message &m_;
  Sender::Sending how_;
  bool sent_ = false;
};

} // namespace

Host &host() {
  Host *h = g_host.load(std::memory_order_acquire);
  if (!h)
    throw usage_error("poc: the poc++ runtime is not running (call poc::run, or compile the "
                      "program with poc++)");
  return *h;
}

bool host_exists() noexcept { return g_host.load(std::memory_order_acquire) != nullptr; }

Host::Host(Engine &engine, Connections &connections, int job_hosts, ProcessExtension *extension)
    : engine_(engine), connections_(connections), job_hosts_(job_hosts),
      in_place_allowed_(run_in_place_allowed()), extension_(extension), spawned_(engine, job_hosts),
      callers_(engine), completions_(engine), barriers_(engine),
      threads_(engine.progress(), [this](Process &p, HostLock &lk) { serve(p, lk); }) {
  // Before any thread starts: a request served at once may run code that
  // asks for the host (a constructor that creates a process, say).
  g_host.store(this, std::memory_order_release);
  set_job_size(job_hosts);
  engine_.set_router([this](std::span<std::unique_ptr<Message>> messages,
                            const std::shared_ptr<Link> &link) { route(messages, link); });
  engine_.progress().set_watchdog([this](HostLock &lk) { spawned_.check_alive(lk); });
  engine_.peer_failures().set_handler([this](int peer, const std::string &failure, HostLock &lk) {
    spawned_.peer_failed(peer, failure, lk);
  });
  if (engine_.parent() >= 0)
    heartbeat_.emplace(engine_, engine_.parent());
  HostLock lk(engine_.progress());
  threads_.prestart(kPrespawnedWorkers, lk);
}

Host::~Host() {
  join_all();
  set_job_size(0);
  g_host.store(nullptr, std::memory_order_release);
}

std::vector<int> Host::spawn_hosts(const std::string &hostname, int count) {
  std::vector<int> hosts = spawned_.spawn(hostname, count, connections_.limit());
  HostLock lk(engine_.progress());
  // The job ended while they started: they end at once.
  if (stopping_)
    for (int h : hosts)
      engine_.sender().send(h, Kind::shutdown, NoHead{}, {}, lk);
  return hosts;
}

ProcessId Host::new_process_id(int host) {
  return ProcessId{host, rank(), next_serial_.fetch_add(1, std::memory_order_relaxed)};
}

// ---------------------------------------------------------------- routing

void Host::route(std::span<std::unique_ptr<Message>> messages, const std::shared_ptr<Link> &link) {
  // Declared before the lock: rejected messages drain their out-of-band
  // blocks after the mutex is released.
  Graves dead;
  // One lock for a whole batch.
  HostLock lk(engine_.progress());
  for (std::unique_ptr<Message> &m : messages)
    route_one(std::move(m), link, dead, lk);
  lk.unlock();
}

void Host::route_one(std::unique_ptr<Message> m, const std::shared_ptr<Link> &link, Graves &dead,
                     HostLock &lk) {
  const Kind kind = m->kind();
  if (is_request(kind)) {
    POC_PROBE(request_routed);
    trace::Slice receiving(trace::Cat::receive, nullptr, trace::On::thread);
    if (receiving.active())
      describe_receive(receiving, *m);
    route_request(std::move(m), dead, lk);
  } else if (kind == Kind::reply) {
    connections_.release(callers_.on_reply(std::move(m), lk), lk);
    POC_PROBE(reply_routed);
  } else if (kind == Kind::ack)
    callers_.on_ack(*m, lk);
  else if (kind == Kind::ack_query)
    completions_.asked(*m, lk);
  else if (Barriers::handles(kind))
    barriers_.route(*m, lk);
  else if (Connections::handles(kind))
    connections_.route(*m, link, lk);
  else if (kind == Kind::heartbeat)
    spawned_.heard_from(m->source(), lk);
  else
    route_shutdown(*m, lk);
}

void Host::route_request(std::unique_ptr<Message> m, Graves &dead, HostLock &lk) {
  const Kind kind = m->kind();
  const RequestHead h = m->head<RequestHead>();
  if (stopping_)
    return reject(std::move(m), RemoteFailure::of<usage_error>("the program has ended"), dead, lk);
  if (h.target.host != rank())
    return reject(std::move(m),
                  RemoteFailure::of<protocol_error>("request for process " + id_text(h.target) +
                                                    " sent to host " + std::to_string(rank())),
                  dead, lk);
  const bool activation = kind == Kind::activate || kind == Kind::persist_create;
  if (is_creation(kind) || activation) {
    // A persistent process's id is derived from its address: it is active
    // (queue behind it; executing the request says so) or becomes active
    // now, also after an earlier activation ended.
    if (auto it = processes_.find(h.target); activation && it != processes_.end())
      return enqueue(*it->second, std::move(m), lk);
    if (!activation && (processes_.count(h.target) || ended_.count(h.target)))
      return reject(std::move(m),
                    RemoteFailure::of<protocol_error>("process id " + id_text(h.target) +
                                                      " is already in use"),
                    dead, lk);
    const ClassInfo *cls = find_class(h.klass);
    if (!cls)
      return reject(std::move(m),
                    RemoteFailure::of<protocol_error>("no class with key " +
                                                      std::to_string(h.klass) + " is registered"),
                    dead, lk);
    ended_.erase(h.target);
    return add_process(*cls, std::move(m), lk);
  }
  auto it = processes_.find(h.target);
  if (it != processes_.end()) {
    Process &p = *it->second;
    if (const char *method = in_place_method(p, *m, lk))
      return run_in_place(p, std::move(m), method, lk);
    return enqueue(p, std::move(m), lk);
  }
  if (auto ended = ended_.find(h.target); ended != ended_.end())
    return reject(std::move(m), RemoteFailure::of<usage_error>(ended_text(h.target, ended->second)),
                  dead, lk);
  if (m->source() == h.target.creator)
    // Requests from the creator's host are ordered after its creation.
    return reject(std::move(m),
                  RemoteFailure::of<usage_error>("no process " + id_text(h.target) + " exists"),
                  dead, lk);
  // A reference that travelled faster than its creation: wait for it.
  pending_[h.target].push_back(std::move(m));
}

void Host::add_process(const ClassInfo &cls, std::unique_ptr<Message> m, HostLock &lk) {
  auto owned = std::make_unique<Process>();
  Process &p = *owned;
  p.id = m->head<RequestHead>().target;
  p.cls = &cls;
  p.context.self = p.id;
  if (trace::on())
    p.context.trace_track = trace::process_track(p.id, cls.name.c_str());
  callers_.add(p.context, lk);
  processes_.emplace(p.id, std::move(owned));
  enqueue(p, std::move(m), lk);
  auto pend = pending_.find(p.id);
  if (pend != pending_.end()) {
    for (auto &q : pend->second)
      enqueue(p, std::move(q), lk);
    pending_.erase(pend);
  }
  engine_.progress().want_free_pollers(processes_.size() > 1, lk);
}

void Host::enqueue(Process &p, std::unique_ptr<Message> m, HostLock &lk) {
  p.mailbox.push_back(std::move(m));
  if (!p.served)
    return schedule(p, lk);
  engine_.progress().notify(lk);
}

void Host::schedule(Process &p, HostLock &lk) {
  start_process(p, lk);
  // The poller that received the request serves it when it leaves the
  // poller role, which it checks by itself: nobody to wake.
  if (ThreadPool::assigned_here(p))
    return;
  engine_.progress().notify(lk);
}

const char *Host::in_place_method(const Process &p, const Message &m, HostLock &) const {
  if (!in_place_allowed_ || !p.cls->nonblocking || p.served || stopping_ ||
      p.state != Process::State::live || !is_call(m.kind()))
    return nullptr;
  return p.cls->nonblocking(m.head<RequestHead>().member);
}

void Host::run_in_place(Process &p, std::unique_ptr<Message> m, const char *method, HostLock &lk) {
  // Served: what arrives for it meanwhile (from a thread that sends to it
  // while this one runs) queues behind this request.
  p.served = true;
  lk.unlock();
  Context *caller = Callers::adopt(&p.context);
  std::optional<Executed> done;
  {
    BusyThread busy;
    Progress::NoWaiting forbidden(method);
    POC_PROBE(method_entered);
    done.emplace(execute(p, *m, true));
  }
  Callers::adopt(caller);
  m.reset();
  lk.lock();
  finish(*done, lk);
  p.served = false;
  if (!p.mailbox.empty() || stopping_)
    schedule(p, lk);
}

void Host::reject(std::unique_ptr<Message> m, const RemoteFailure &why, Graves &dead,
                  HostLock &lk) {
  const RequestHead h = m->head<RequestHead>();
  if (why.is<protocol_error>())
    fmt::print(stderr, "poc: host {}: refused a request from host {}: {}\n", rank(), m->source(),
               why.message);
  if (h.reply_token)
    send_failure_reply(m->source(), h.reply_token, why, lk);
  else if (is_started(m->kind()))
    completions_.finished(m->source(), h.caller, h.member, &why, lk);
  dead.push_back(std::move(m));
}

void Host::send_failure_reply(int dest, std::uint64_t token, const RemoteFailure &why,
                              HostLock &lk) {
  Writer body;
  why.write(body);
  engine_.sender().send(dest, Kind::reply, ReplyHead{token, Status::failed}, body.bytes(), lk);
}

// ---------------------------------------------------------------- processes

void Host::start_process(Process &p, HostLock &lk) {
  p.served = true;
  threads_.assign(p, stopping_, lk);
}

void Host::serve(Process &p, HostLock &lk) {
  trace::Slice serving(trace::Cat::serve, nullptr, trace::On::thread);
  if (serving.active()) {
    serving.event().cls = p.cls->name.c_str();
    serving.event().process = p.id;
  }
  Callers::adopt(&p.context);
  // Kept by the thread, so that serving a request allocates nothing (a
  // thread serves one process at a time).
  thread_local std::vector<std::unique_ptr<Message>> run;
  thread_local std::vector<Executed> done;
  for (;;) {
    if (stopping_)
      break;
    if (p.mailbox.empty()) {
      // Idle: the next request gives it a thread again.
      p.served = false;
      Callers::adopt(nullptr);
      return;
    }
    // A run of started calls (a stream, often a coalesced batch) runs
    // with the mutex released once: one lock to finish them all.
    run.clear();
    do {
      run.push_back(std::move(p.mailbox.front()));
      p.mailbox.pop_front();
    } while (run.size() < kServeRun && run.front()->kind() == Kind::start && !p.mailbox.empty() &&
             p.mailbox.front()->kind() == Kind::start);
    lk.unlock();
    done.clear();
    {
      // Counted once per run, not per call: this is every started call's path.
      BusyThread busy;
      for (std::unique_ptr<Message> &m : run) {
        POC_PROBE(method_entered);
        done.push_back(execute(p, *m));
        m.reset();
      }
    }
    lk.lock();
    bool ended = false;
    for (const Executed &d : done) {
      finish(d, lk);
      ended |= d.ended;
    }
    if (ended)
      break;
  }
  end_process(p, lk);
  Callers::adopt(nullptr);
}

void Host::end_process(Process &p, HostLock &lk) {
  if (p.attachment && p.object && extension_) {
    // The job is ending: the layer above saves what it must, now that no
    // method is changing the object any more.
    lk.unlock();
    extension_->on_job_end(p);
    lk.lock();
  }
  // The process has ended (destroyed, or the job is ending): refuse what
  // is still queued (counted as finished, with its error). An activation of a
  // persistent process's address is not for this process but for the next
  // one with its id: the reply that ended this one (delete, a failed
  // activation) left before this cleanup, so the caller may already have
  // asked again. Those are routed anew once this process is gone.
  Graves dead;
  std::vector<std::unique_ptr<Message>> next_activation;
  while (!p.mailbox.empty()) {
    auto m = std::move(p.mailbox.front());
    p.mailbox.pop_front();
    const Kind kind = m->kind();
    if (!stopping_ && (kind == Kind::activate || kind == Kind::persist_create)) {
      next_activation.push_back(std::move(m));
      continue;
    }
    reject(std::move(m),
           RemoteFailure::of<usage_error>(stopping_ ? "the program has ended"
                                                    : ended_text(p.id, p.cls->name)),
           dead, lk);
  }
  ended_.emplace(p.id, p.cls->name);
  callers_.remove(p.context, lk);
  auto it = processes_.find(p.id);
  std::unique_ptr<Process> owned = std::move(it->second);
  processes_.erase(it);
  for (auto &m : next_activation)
    route_request(std::move(m), dead, lk);
  engine_.progress().want_free_pollers(processes_.size() > 1, lk);
  engine_.progress().notify(lk);
  lk.unlock();
  dead.clear();
  for (auto &t : owned->context.tasks)
    if (t.joinable())
      t.join();
  report_unwaited_errors(owned->context.errors,
                         "process " + id_text(owned->id) + " (" + owned->cls->name + ")");
  owned.reset();
  lk.lock();
}

Host::Executed Host::execute(Process &p, Message &m, bool in_place) {
  const Kind kind = m.kind();
  const RequestHead h = m.head<RequestHead>();
  Reader args(m.body(), &m);
  Writer out;
  if (h.reply_token)
    reserve_frame<ReplyHead>(out);
  ReplySender responder(engine_, m, in_place ? Sender::Sending::copy : Sender::Sending::take);
  Request rq(args, out, &responder);
  trace::Slice served(trace_cat(kind), p.context.trace_track);
  if (served.active())
    describe_serve(served, p, m);
  std::optional<RemoteFailure> failure;
  bool ended = false;
  try {
    if (extension_ && extension_->handles(kind)) {
      ended = extension_->execute(*this, p, m, rq, out);
    } else if (is_creation(kind)) {
      void *object = p.cls->construct(h.member, rq);
      if (!object)
        throw protocol_error("poc: constructor returned no object");
      make_live(p, object);
    } else if (is_call(kind)) {
      if (p.state != Process::State::live)
        throw usage_error("poc: process " + id_text(p.id) + " was not constructed: " + p.failure);
      p.cls->dispatch(p.object, h.member, rq);
    } else if (kind == Kind::destroy) {
      // The process ends whatever its destructor does: an exception from
      // it goes to the caller of delete, and the object is gone all the same.
      p.state = Process::State::ended;
      ended = true;
      abandon_if_member(p, "was deleted");
      void *object = std::exchange(p.object, nullptr);
      p.context.object = nullptr;
      if (object)
        forget_hosted(object);
      if (p.attachment && extension_)
        extension_->on_delete(p);
      if (object)
        p.cls->destroy(object);
    } else {
      throw protocol_error("poc: a request of a kind this host does not serve");
    }
    rq.finish_reply();
  } catch (...) {
    failure = RemoteFailure::current();
  }
  if (failure) {
    if (served.active())
      served.event().failed = true;
    if (is_call(kind))
      abandon_if_member(p, "ended a method with " + failure->name + ": " + failure->message);
    if (is_creation(kind)) {
      p.state = Process::State::failed;
      p.failure = failure->name + ": " + failure->message;
    }
    // A failed activation or persistent creation ends the process, so that
    // a later one (e.g. after the record was repaired) starts afresh.
    if ((kind == Kind::activate || kind == Kind::persist_create) &&
        p.state != Process::State::live) {
      p.state = Process::State::ended;
      ended = true;
    }
    if (failure->is<decode_error>() || failure->is<protocol_error>())
      fmt::print(stderr, "poc: host {}: bad request from host {} to process {}: {}\n", rank(),
                 m.source(), id_text(p.id), failure->message);
  }
  return Executed{m.source(), kind, h, std::move(failure), responder.sent(), ended};
}

void Host::finish(const Executed &done, HostLock &lk) {
  if (is_started(done.kind))
    completions_.finished(done.source, done.head.caller, done.head.member,
                          done.failure ? &*done.failure : nullptr, lk);
  else if (done.failure && done.head.reply_token && !done.replied)
    send_failure_reply(done.source, done.head.reply_token, *done.failure, lk);
}

void Host::make_live(Process &p, void *object) {
  p.object = object;
  p.context.cls = p.cls;
  p.context.object = object;
  p.state = Process::State::live;
  register_hosted(object, *p.cls, p.id);
}

void Host::abandon_if_member(const Process &p, const std::string &event) noexcept {
  if (!p.object || !p.cls->group_member)
    return;
  detail::abandon_barriers(*p.cls->group_member(p.object),
                           "(process " + id_text(p.id) + ") " + event);
}

// ---------------------------------------------------------------- shutdown

void Host::route_shutdown(const Message &m, HostLock &lk) {
  switch (m.kind()) {
  case Kind::shutdown:
    begin_shutdown(lk);
    break;
  case Kind::shutdown_done:
    ++hosts_done_;
    spawned_.reported_done(m.source(), lk);
    break;
  case Kind::finish:
    send_to_children(Kind::finish, lk);
    finished_ = true;
    break;
  default:
    fmt::print(stderr, "poc: host {}: dropped a message of kind {} from host {}\n", rank(),
               static_cast<int>(m.kind()), m.source());
    return;
  }
  engine_.progress().notify(lk);
}

void Host::send_to_children(Kind kind, HostLock &lk) {
  for (int child : spawned_.hosts(lk))
    engine_.sender().send(child, kind, NoHead{}, {}, lk);
}

void Host::begin_shutdown(HostLock &lk) {
  if (stopping_)
    return;
  stopping_ = true;
  connections_.refuse_new(lk);
  spawned_.refuse_new(lk);
  send_to_children(Kind::shutdown, lk);
  Graves dead;
  for (auto &[id, queue] : pending_)
    for (auto &m : queue)
      reject(std::move(m), RemoteFailure::of<usage_error>("the program has ended"), dead, lk);
  pending_.clear();
  // Idle processes have no thread to end them: they get one.
  for (auto &[id, p] : processes_)
    if (!p->served)
      start_process(*p, lk);
  engine_.progress().notify(lk);
  // `dead` holds requests whose blocks must be drained; with the mutex held
  // that could stall the poller, so hand them to the calling thread's end.
  for (auto &m : dead)
    graveyard_.push_back(std::move(m));
}

std::size_t Host::reporting_hosts(HostLock &lk) const {
  std::size_t ranks =
      engine_.parent() < 0 && rank() == 0 ? static_cast<std::size_t>(engine_.size() - 1) : 0;
  return ranks + spawned_.hosts(lk).size();
}

void Host::drain(HostLock &lk) {
  engine_.progress().wait_until(lk, [&] { return processes_.empty(); }, WaitRole::idle);
  // Every process here has ended, and so, once the others have, each
  // request started from here has been executed or refused. Their hosts
  // are asked for what nobody asked for yet (the calls of main and of
  // processes that ended without poc::sync()), so that the errors among
  // them are reported (report_main_errors, or at once for a process that
  // has ended) before this host reports done.
  for (callers_.ask_all(lk); !callers_.all_started_answered(lk); callers_.ask_all(lk))
    engine_.progress().wait_until(
        lk, [&] { return callers_.all_started_answered(lk) || callers_.must_ask_any(lk); });
  // Every host still serves (nobody finishes before all are done), so the
  // hosts this one connected to answer the close handshakes.
  lk.unlock();
  connections_.close_all(std::chrono::seconds(5));
  lk.lock();
  engine_.progress().wait_until(
      lk, [&] { return hosts_done_ >= reporting_hosts(lk); }, WaitRole::idle);
}

void Host::end_job() {
  HostLock lk(engine_.progress());
  for (int r = 1; r < engine_.size(); ++r)
    engine_.sender().send(r, Kind::shutdown, NoHead{}, {}, lk);
  begin_shutdown(lk);
  drain(lk);
  for (int r = 1; r < engine_.size(); ++r)
    engine_.sender().send(r, Kind::finish, NoHead{}, {}, lk);
  send_to_children(Kind::finish, lk);
  finished_ = true;
  auto graves = std::move(graveyard_);
  lk.unlock();
}

void Host::serve_until_finished() {
  HostLock lk(engine_.progress());
  engine_.progress().wait_until(lk, [&] { return stopping_; }, WaitRole::idle);
  drain(lk);
  if (heartbeat_) {
    // Its last beat goes before the report that this host is done. (It
    // sends under the host mutex.)
    lk.unlock();
    heartbeat_->stop();
    lk.lock();
  }
  // The job's ranks report to rank 0, spawned hosts to their parent.
  engine_.sender().send(engine_.parent() >= 0 ? engine_.parent() : 0, Kind::shutdown_done, NoHead{},
                        {}, lk);
  engine_.progress().wait_until(lk, [&] { return finished_; }, WaitRole::idle);
  auto graves = std::move(graveyard_);
  lk.unlock();
}

void Host::join_all() {
  std::vector<std::thread> threads;
  {
    HostLock lk(engine_.progress());
    threads = threads_.stop(lk);
    for (auto &t : callers_.main().tasks)
      if (t.joinable())
        threads.push_back(std::move(t));
    callers_.main().tasks.clear();
  }
  for (auto &t : threads)
    t.join();
}

} // namespace poc::detail
