#include "host.hpp"

#include "arena.hpp"
#include <fmt/format.h>
#include <poc/serialize/type_name.hpp>

#include <poc/gen/request.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <typeinfo>
#include <unistd.h>

namespace poc::detail {
namespace {

thread_local Context *t_context = nullptr;

/// Acknowledge started requests at least every this many.
constexpr std::uint64_t kAckBatch = 64;
/// How long an idle process keeps an acknowledgement back in case more
/// started requests from the same caller arrive (a caller streaming starts
/// then gets one acknowledgement per batch, not one per call).
constexpr auto kAckLinger = std::chrono::microseconds(20);
/// Idle pool threads kept for fast creation.
constexpr std::size_t kPrespawnedWorkers = 2;

bool is_started(Kind k) { return k == Kind::start || k == Kind::start_create; }
bool has_reply(Kind k) {
  return k == Kind::call || k == Kind::start_future || k == Kind::create || k == Kind::destroy ||
         k == Kind::activate || k == Kind::persist_create || k == Kind::checkpoint;
}

/// Sends a reply while the request's data is alive, waiting for its
/// out-of-band blocks.
class ReplySender final : public Responder {
public:
  ReplySender(Engine &engine, const Message &m) : engine_(engine), m_(m) {}
  void respond(Writer &reply) override {
    const WireHeader &rq = m_.header();
    if (!has_reply(rq.kind))
      return;
    WireHeader h;
    h.kind = Kind::reply;
    h.token = rq.token;
    send(engine_, m_.source(), kReplyTag, h, reply);
    sent_ = true;
  }
  bool sent() const noexcept { return sent_; }

  /// Sends `w` (header patched) to `dest`; waits for out-of-band blocks.
  static void send(Engine &engine, int dest, int tag, WireHeader h, Writer &w) {
    const auto &blocks = w.out_of_band();
    if (blocks.empty()) {
      patch_header(w, h);
      engine.send_owned(dest, tag, w.take());
      return;
    }
    engine.announce_blocks(dest, blocks, h);
    patch_header(w, h);
    auto batch = std::make_shared<Engine::SendBatch>();
    engine.send_batch(dest, tag, w.bytes(), blocks, h.oob_tag, batch);
    std::unique_lock<std::mutex> lk(engine.mutex());
    engine.wait_until(lk, [&] { return batch->pending == 0; });
  }

private:
  Engine &engine_;
  const Message &m_;
  bool sent_ = false;
};

} // namespace

void patch_header(Writer &w, const WireHeader &h) {
  if (w.size() < sizeof(WireHeader))
    throw std::logic_error("poc: message without room for its header");
  // The writer owns its buffer; the header slot was reserved by begin_message.
  std::memcpy(const_cast<std::byte *>(w.bytes().data()), &h, sizeof h);
}

void begin_message(Writer &w) {
  WireHeader h;
  w.write_bytes(&h, sizeof h);
}

Host::Host(Engine &engine, int job_hosts)
    : engine_(engine), job_hosts_(job_hosts), connections_(*this) {
  set_job_size(job_hosts);
  main_context_.id = 1;
  contexts_[1] = &main_context_;
  engine_.set_router(
      [this](int source, int tag, std::vector<std::byte> bytes, const std::shared_ptr<Link> &link) {
        route(source, tag, std::move(bytes), link);
      });
  engine_.set_watchdog([this] { check_spawned_hosts_locked(); });
  std::lock_guard<std::mutex> g(engine_.mutex());
  for (std::size_t i = 0; i < kPrespawnedWorkers; ++i) {
    auto w = std::make_unique<Worker>();
    Worker *raw = w.get();
    w->thread = std::thread(&Host::worker_main, this, raw);
    workers_.push_back(std::move(w));
  }
}

void Host::check_spawned_hosts_locked() {
  if (children_.empty() || stopping_)
    return;
  static const std::string node = [] {
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    return std::string(name);
  }();
  for (const Child &p : children_)
    if (p.node == node && kill(p.pid, 0) != 0 && errno == ESRCH) {
      fmt::print(stderr,
                 "poc: host {} (spawned by host {} on {}, pid {}) has died; ending the job, "
                 "whose calls to it could never complete\n",
                 p.host, rank(), p.node, p.pid);
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

Host::~Host() {
  join_all();
  set_job_size(0);
}

Context &Host::current_context() { return t_context ? *t_context : main_context_; }

void Host::adopt_context(Context *ctx) noexcept { t_context = ctx; }

std::shared_ptr<ReplySlot> Host::new_reply_slot(std::uint64_t context_to_credit) {
  auto slot = std::make_shared<ReplySlot>();
  slot->context = context_to_credit;
  std::lock_guard<std::mutex> g(engine_.mutex());
  slot->token = next_token_++;
  slots_.emplace(slot->token, slot);
  return slot;
}

void Host::drop_reply_slot(std::uint64_t token) {
  std::lock_guard<std::mutex> g(engine_.mutex());
  slots_.erase(token);
}

ProcessId Host::new_process_id(int host) {
  return ProcessId{host, rank(), next_serial_.fetch_add(1, std::memory_order_relaxed)};
}

// ---------------------------------------------------------------- routing

void Host::route(int source, int tag, std::vector<std::byte> bytes,
                 const std::shared_ptr<Link> &link) {
  // Declared before the lock: rejected messages drain their out-of-band
  // blocks after the mutex is released.
  std::vector<std::unique_ptr<Message>> dead;
  std::unique_ptr<Message> m;
  try {
    m = std::make_unique<Message>(source, std::move(bytes), link);
    Kind k = m->header().kind;
    if ((tag == kReplyTag) != (k == Kind::reply))
      throw protocol_error("poc: message kind " + std::to_string(static_cast<int>(k)) +
                           " on the wrong tag");
  } catch (const std::exception &e) {
    fmt::print(stderr, "poc: rank {}: dropped a malformed message from rank {}: {}\n", rank(),
               source, e.what());
    return;
  }
  std::unique_lock<std::mutex> lk(engine_.mutex());
  switch (m->header().kind) {
  case Kind::reply:
    route_reply(std::move(m));
    break;
  case Kind::ack:
    route_ack(*m);
    break;
  case Kind::barrier_arrive:
  case Kind::barrier_release:
  case Kind::barrier_abandon:
  case Kind::shutdown:
  case Kind::shutdown_done:
  case Kind::finish:
    route_control(*m);
    break;
  case Kind::connect_request:
    connections_.on_connect_request(m->source());
    break;
  case Kind::connect_port:
    try {
      Reader r(m->payload());
      connections_.on_connect_port(m->source(), r.read<std::string>());
    } catch (const std::exception &e) {
      fmt::print(stderr, "poc: host {}: malformed port message from host {}: {}\n", rank(),
                 m->source(), e.what());
    }
    break;
  case Kind::close_connection:
    connections_.on_close(link);
    break;
  case Kind::connection_closed:
    connections_.on_closed(link);
    break;
  default:
    route_request(std::move(m), dead);
  }
  lk.unlock();
}

void Host::route_request(std::unique_ptr<Message> m, std::vector<std::unique_ptr<Message>> &dead) {
  const WireHeader &h = m->header();
  if (stopping_)
    return reject(std::move(m), "poc::usage_error", "the program has ended", dead);
  if (h.target.host != rank())
    return reject(std::move(m), "poc::protocol_error",
                  "request for process " + id_text(h.target) + " sent to rank " +
                      std::to_string(rank()),
                  dead);
  if (h.kind == Kind::create || h.kind == Kind::start_create) {
    if (processes_.count(h.target) || ended_.count(h.target))
      return reject(std::move(m), "poc::protocol_error",
                    "process id " + id_text(h.target) + " is already in use", dead);
    const ClassInfo *cls = find_class(h.klass);
    if (!cls)
      return reject(std::move(m), "poc::protocol_error",
                    "no class with key " + std::to_string(h.klass) + " is registered", dead);
    return add_process(*cls, std::move(m));
  }
  if (h.kind == Kind::activate || h.kind == Kind::persist_create) {
    // A persistent process's id is derived from its address: it is active
    // (queue behind it; executing the request says so) or becomes active
    // now, also after an earlier activation ended.
    if (auto it = processes_.find(h.target); it != processes_.end())
      return enqueue(*it->second, std::move(m));
    const ClassInfo *cls = find_class(h.klass);
    if (!cls)
      return reject(std::move(m), "poc::protocol_error",
                    "no class with key " + std::to_string(h.klass) + " is registered", dead);
    ended_.erase(h.target);
    return add_process(*cls, std::move(m));
  }
  auto it = processes_.find(h.target);
  if (it != processes_.end())
    return enqueue(*it->second, std::move(m));
  if (ended_.count(h.target))
    return reject(std::move(m), "poc::usage_error", "process " + id_text(h.target) + " has ended",
                  dead);
  if (m->source() == h.target.creator)
    // Requests from the creator's rank are ordered after its creation.
    return reject(std::move(m), "poc::usage_error", "no process " + id_text(h.target) + " exists",
                  dead);
  // A reference that travelled faster than its creation: wait for it.
  pending_[h.target].push_back(std::move(m));
}

void Host::add_process(const ClassInfo &cls, std::unique_ptr<Message> m) {
  auto owned = std::make_unique<Process>();
  Process &p = *owned;
  p.id = m->header().target;
  p.cls = &cls;
  p.context.id = next_context_++;
  p.context.self = p.id;
  contexts_[p.context.id] = &p.context;
  processes_.emplace(p.id, std::move(owned));
  enqueue(p, std::move(m));
  auto pend = pending_.find(p.id);
  if (pend != pending_.end()) {
    for (auto &q : pend->second)
      enqueue(p, std::move(q));
    pending_.erase(pend);
  }
  start_process(p);
}

void Host::enqueue(Process &p, std::unique_ptr<Message> m) {
  const WireHeader &h = m->header();
  if (is_started(h.kind))
    ++p.acks[{m->source(), h.context}].queued;
  p.mailbox.push_back(std::move(m));
  engine_.notify_locked();
}

void Host::reject(std::unique_ptr<Message> m, const std::string &type, const std::string &text,
                  std::vector<std::unique_ptr<Message>> &dead) {
  const WireHeader &h = m->header();
  if (type == "poc::protocol_error")
    fmt::print(stderr, "poc: rank {}: refused a request from rank {}: {}\n", rank(), m->source(),
               text);
  if (has_reply(h.kind))
    send_error_reply(m->source(), h.token, type, text);
  else if (is_started(h.kind))
    send_ack(m->source(), h.context, 1, {{type, text}});
  dead.push_back(std::move(m));
}

void Host::route_reply(std::unique_ptr<Message> m) {
  auto it = slots_.find(m->header().token);
  if (it == slots_.end()) {
    fmt::print(stderr, "poc: rank {}: dropped a reply from rank {} for an unknown call\n", rank(),
               m->source());
    return;
  }
  std::shared_ptr<ReplySlot> slot = std::move(it->second);
  slots_.erase(it);
  connections_.release_locked(slot->peer);
  if (slot->context) {
    auto c = contexts_.find(slot->context);
    if (c != contexts_.end())
      --c->second->outstanding;
  }
  slot->message = std::move(m);
  slot->arrived = true;
  engine_.notify_locked();
}

void Host::route_ack(const Message &m) {
  const WireHeader &h = m.header();
  auto c = contexts_.find(h.context);
  if (c == contexts_.end())
    return; // the caller has ended meanwhile
  Context &ctx = *c->second;
  try {
    Reader r(m.payload());
    std::uint64_t n = r.read_size(1 << 20);
    for (std::uint64_t i = 0; i < n; ++i) {
      auto type = r.read<std::string>();
      auto text = r.read<std::string>();
      ctx.errors.push_back(std::make_exception_ptr(remote_error(type, text)));
    }
    r.expect_end();
  } catch (const std::exception &e) {
    fmt::print(stderr, "poc: rank {}: malformed acknowledgement from rank {}: {}\n", rank(),
               m.source(), e.what());
  }
  ctx.outstanding -= static_cast<std::int64_t>(h.aux);
  engine_.notify_locked();
}

void Host::route_control(const Message &m) {
  const WireHeader &h = m.header();
  switch (h.kind) {
  case Kind::barrier_arrive: {
    if (auto ab = abandoned_.find(h.method); ab != abandoned_.end() && ab->second.epoch <= h.aux) {
      send_control(m.source(), Kind::barrier_release, h.method, h.aux, 1, &ab->second.text,
                   Status::exception);
      break;
    }
    Arrivals &a = arrivals_[{h.method, h.aux}];
    a.size = h.context;
    ++a.count;
    ++a.per_host[m.source()];
    if (a.count >= a.size) {
      for (auto [dest, n] : a.per_host)
        send_control(dest, Kind::barrier_release, h.method, h.aux, n);
      arrivals_.erase({h.method, h.aux});
    }
    break;
  }
  case Kind::barrier_release:
    if (h.status == Status::exception) {
      auto &[count, text] = failed_[{h.method, h.aux}];
      count += h.context;
      try {
        Reader r(m.payload());
        text = r.read<std::string>();
      } catch (const std::exception &e) {
        text = "barrier abandoned (unreadable reason: " + std::string(e.what()) + ")";
      }
    } else {
      released_[{h.method, h.aux}] += h.context;
    }
    engine_.notify_locked();
    break;
  case Kind::barrier_abandon:
    try {
      Reader r(m.payload());
      auto text = r.read<std::string>();
      r.expect_end();
      fail_barriers_locked(h.method, h.aux, text);
    } catch (const std::exception &e) {
      fmt::print(stderr, "poc: rank {}: malformed barrier message from rank {}: {}\n", rank(),
                 m.source(), e.what());
    }
    break;
  case Kind::shutdown:
    begin_shutdown_locked();
    break;
  case Kind::shutdown_done:
    ++hosts_done_;
    break;
  case Kind::finish:
    for (const Child &child : children_)
      send_control(child.host, Kind::finish, 0, 0, 0);
    finished_ = true;
    break;
  default:
    break;
  }
  engine_.notify_locked();
}

void Host::send_error_reply(int dest, std::uint64_t token, const std::string &type,
                            const std::string &message) {
  Writer w;
  begin_message(w);
  w.write(type);
  w.write(message);
  WireHeader h;
  h.kind = Kind::reply;
  h.status = Status::exception;
  h.token = token;
  patch_header(w, h);
  engine_.send_owned(dest, kReplyTag, w.take(), true);
}

void Host::send_ack(int dest, std::uint64_t context, std::uint64_t count,
                    const std::vector<std::pair<std::string, std::string>> &errors) {
  Writer w;
  begin_message(w);
  w.write_size(errors.size());
  for (const auto &[type, text] : errors) {
    w.write(type);
    w.write(text);
  }
  WireHeader h;
  h.kind = Kind::ack;
  h.context = context;
  h.aux = count;
  patch_header(w, h);
  engine_.send_owned(dest, kRequestTag, w.take(), true);
}

void Host::send_control(int dest, Kind kind, std::uint64_t method, std::uint64_t aux,
                        std::uint64_t context, const std::string *text, Status status,
                        const Link *via) {
  Writer w;
  begin_message(w);
  WireHeader h;
  if (text)
    w.write(*text);
  h.status = status;
  h.kind = kind;
  h.method = method;
  h.aux = aux;
  h.context = context;
  patch_header(w, h);
  engine_.send_owned(dest, kRequestTag, w.take(), true, via);
}

// ---------------------------------------------------------------- processes

void Host::start_process(Process &p) {
  ++running_threads_;
  if (!idle_workers_.empty()) {
    Worker *w = idle_workers_.back();
    idle_workers_.pop_back();
    w->assigned = &p;
    w->cv.notify_one();
    return;
  }
  auto w = std::make_unique<Worker>();
  Worker *raw = w.get();
  w->assigned = &p;
  w->thread = std::thread(&Host::worker_main, this, raw);
  workers_.push_back(std::move(w));
}

void Host::worker_main(Worker *w) {
  std::unique_lock<std::mutex> lk(engine_.mutex());
  for (;;) {
    w->cv.wait(lk, [&] { return w->assigned || w->exit; });
    if (!w->assigned)
      return;
    Process *p = w->assigned;
    w->assigned = nullptr;
    serve(*p, lk);
    if (w->exit)
      return;
    idle_workers_.push_back(w);
  }
}

void Host::serve(Process &p, std::unique_lock<std::mutex> &lk) {
  t_context = &p.context;
  for (;;) {
    if (p.mailbox.empty() && p.unacked && !stopping_) {
      auto until = std::chrono::steady_clock::now() + kAckLinger;
      engine_.wait_until(lk, [&] {
        return !p.mailbox.empty() || stopping_ || std::chrono::steady_clock::now() >= until;
      });
      if (p.mailbox.empty())
        flush_acks(p, false);
    }
    engine_.wait_until(lk, [&] { return !p.mailbox.empty() || stopping_; });
    if (stopping_)
      break;
    std::unique_ptr<Message> m = std::move(p.mailbox.front());
    p.mailbox.pop_front();
    if (is_started(m->header().kind))
      --p.acks[{m->source(), m->header().context}].queued;
    lk.unlock();
    bool ended = execute(p, *m);
    m.reset();
    lk.lock();
    if (ended)
      break;
  }
  if (p.persistent && p.object) {
    // The job is ending: deactivate (save the state, which no method is
    // changing any more, and give up the lease).
    lk.unlock();
    deactivate(p);
    lk.lock();
  }
  // The process has ended (destroyed, or the job is ending): refuse what
  // is still queued and acknowledge what was executed. An activation of a
  // persistent process's address is not for this process but for the next
  // one with its id: the reply that ended this one (delete, a failed
  // activation) left before this cleanup, so the caller may already have
  // asked again. Those are routed anew once this process is gone.
  std::vector<std::unique_ptr<Message>> dead;
  std::vector<std::unique_ptr<Message>> next_activation;
  while (!p.mailbox.empty()) {
    auto m = std::move(p.mailbox.front());
    p.mailbox.pop_front();
    const Kind kind = m->header().kind;
    if (!stopping_ && (kind == Kind::activate || kind == Kind::persist_create)) {
      next_activation.push_back(std::move(m));
      continue;
    }
    if (is_started(kind))
      --p.acks[{m->source(), m->header().context}].queued;
    reject(std::move(m), "poc::usage_error",
           stopping_ ? "the program has ended" : "process " + id_text(p.id) + " has ended", dead);
  }
  flush_acks(p, true);
  ended_.insert(p.id);
  contexts_.erase(p.context.id);
  auto it = processes_.find(p.id);
  std::unique_ptr<Process> owned = std::move(it->second);
  processes_.erase(it);
  for (auto &m : next_activation)
    route_request(std::move(m), dead);
  --running_threads_;
  engine_.notify_locked();
  t_context = nullptr;
  lk.unlock();
  dead.clear();
  for (auto &t : owned->context.tasks)
    if (t.joinable())
      t.join();
  owned.reset();
  lk.lock();
}

bool Host::execute(Process &p, Message &m) {
  const WireHeader &h = m.header();
  Reader args(m.payload(), &m);
  Writer out;
  if (has_reply(h.kind))
    begin_message(out);
  ReplySender responder(engine_, m);
  Request rq(args, out, &responder);
  std::string type, text;
  bool failed = false;
  bool ended = false;
  try {
    switch (h.kind) {
    case Kind::create:
    case Kind::start_create: {
      void *object = p.cls->construct(h.method, rq);
      if (!object)
        throw protocol_error("poc: constructor returned no object");
      make_live(p, object);
      break;
    }
    case Kind::activate:
    case Kind::persist_create:
    case Kind::checkpoint:
      ended = execute_persistence(p, m, rq, out);
      break;
    case Kind::call:
    case Kind::start:
    case Kind::start_future:
      if (p.state != Process::State::live)
        throw usage_error("poc: process " + id_text(p.id) + " was not constructed: " + p.failure);
      p.cls->dispatch(p.object, h.method, rq);
      break;
    case Kind::destroy: {
      // The process ends whatever its destructor does: an exception from
      // it goes to the caller of delete, and the object is gone all the same.
      p.state = Process::State::ended;
      ended = true;
      abandon_if_member(p, "was deleted");
      void *object = std::exchange(p.object, nullptr);
      p.context.object = nullptr;
      if (object)
        forget_hosted(object);
      if (p.persistent) {
        // delete of a persistent process removes it from the store for good.
        store().remove(p.persistent->address);
        p.persistent.reset();
      }
      if (object)
        p.cls->destroy(object);
      break;
    }
    default:
      throw protocol_error("poc: unexpected request kind");
    }
    rq.finish_reply();
  } catch (const std::exception &e) {
    failed = true;
    type = type_name(typeid(e));
    text = e.what();
  } catch (...) {
    failed = true;
    type = "unknown exception";
    text = "(not derived from std::exception)";
  }
  if (failed) {
    if (h.kind == Kind::call || h.kind == Kind::start || h.kind == Kind::start_future)
      abandon_if_member(p, "ended a method with " + type + ": " + text);
    if (h.kind == Kind::create || h.kind == Kind::start_create) {
      p.state = Process::State::failed;
      p.failure = type + ": " + text;
    }
    // A failed activation or persistent creation ends the process, so that
    // a later one (e.g. after the record was repaired) starts afresh.
    if ((h.kind == Kind::activate || h.kind == Kind::persist_create) &&
        p.state != Process::State::live) {
      p.state = Process::State::ended;
      ended = true;
    }
    if (type == "poc::decode_error" || type == "poc::protocol_error")
      fmt::print(stderr, "poc: rank {}: bad request from rank {} to process {}: {}\n", rank(),
                 m.source(), id_text(p.id), text);
  }
  std::lock_guard<std::mutex> g(engine_.mutex());
  if (is_started(h.kind)) {
    finish_started(p, m, failed ? &type : nullptr, failed ? &text : nullptr);
  } else if (failed && has_reply(h.kind) && !responder.sent()) {
    send_error_reply(m.source(), h.token, type, text);
  }
  return ended;
}

void Host::finish_started(Process &p, const Message &m, const std::string *type,
                          const std::string *text) {
  auto key = std::make_pair(m.source(), m.header().context);
  Process::AckState &st = p.acks[key];
  ++st.executed;
  ++p.unacked;
  if (type)
    st.errors.emplace_back(*type, *text);
  // Acknowledge now after a full batch, or if this caller has nothing more
  // queued while others keep the process busy; an idle process lingers.
  if (st.executed >= kAckBatch || (st.queued == 0 && !p.mailbox.empty())) {
    p.unacked -= st.executed;
    send_ack(key.first, key.second, st.executed, st.errors);
    st.executed = 0;
    st.errors.clear();
  }
}

void Host::flush_acks(Process &p, bool all) {
  for (auto it = p.acks.begin(); it != p.acks.end();) {
    auto &[key, st] = *it;
    if (st.executed && (all || st.queued == 0)) {
      p.unacked -= st.executed;
      send_ack(key.first, key.second, st.executed, st.errors);
      st.executed = 0;
      st.errors.clear();
    }
    if (st.queued == 0 && st.executed == 0)
      it = p.acks.erase(it);
    else
      ++it;
  }
}

void Host::make_live(Process &p, void *object) {
  p.object = object;
  p.context.cls = p.cls;
  p.context.object = object;
  p.state = Process::State::live;
  register_hosted(object, *p.cls, p.id);
}

// ---------------------------------------------------------------- persistence

const persist::Store &Host::store() {
  std::lock_guard<std::mutex> g(store_mu_);
  if (!store_)
    store_ = std::make_unique<persist::Store>(persist::Store::default_root());
  return *store_;
}

bool Host::execute_persistence(Process &p, const Message &m, Request &rq, Writer &out) {
  const WireHeader &h = m.header();
  const bool live = p.state == Process::State::live;
  if (h.kind == Kind::checkpoint) {
    rq.args().expect_end();
    if (!live)
      throw usage_error("poc: process " + id_text(p.id) + " was not constructed: " + p.failure);
    if (!p.persistent)
      throw usage_error("poc: checkpoint of process " + id_text(p.id) +
                        ", which is not persistent");
    p.cls->persist->save(store(), p.persistent->address, p.cls->name, p.object);
    return false;
  }
  auto address = persist::Address::parse(rq.args().read<std::string>());
  if (live) {
    if (h.kind == Kind::persist_create)
      throw usage_error("poc: persistent object '" + address.str() +
                        "' is already active (use poc::persistent<T> to reach it)");
    rq.args().expect_end();
    out.write(true);
    return false;
  }
  if (!p.cls->persist)
    throw usage_error("poc: class " + p.cls->name +
                      " cannot be persistent: it has no poc::Serializer or no default constructor");
  const persist::Store &st = store();
  persist::Lease lease = st.lease(address);
  void *object = nullptr;
  if (h.kind == Kind::activate) {
    rq.args().expect_end();
    if (!st.contains(address)) {
      out.write(false);
      p.state = Process::State::ended;
      return true;
    }
    object = p.cls->persist->restore(st, address, p.cls->name);
    out.write(true);
  } else {
    if (st.contains(address))
      throw usage_error("poc: persistent object '" + address.str() +
                        "' already exists (use poc::persistent<T> to activate it)");
    object = p.cls->construct(h.method, rq);
    if (!object)
      throw protocol_error("poc: constructor returned no object");
    try {
      p.cls->persist->save(st, address, p.cls->name, object);
    } catch (...) {
      try {
        p.cls->destroy(object);
      } catch (...) {
        // The failed save is what the caller needs to hear about.
      }
      throw;
    }
  }
  make_live(p, object);
  p.persistent.emplace(Process::Persistent{std::move(address), std::move(lease)});
  return false;
}

void Host::deactivate(Process &p) noexcept {
  try {
    p.cls->persist->save(store(), p.persistent->address, p.cls->name, p.object);
  } catch (const std::exception &e) {
    fmt::print(stderr, "poc: rank {}: could not save persistent process {} ('{}'): {}\n", rank(),
               id_text(p.id), p.persistent->address.str(), e.what());
  }
  p.persistent.reset();
}

// ---------------------------------------------------------------- barriers

void Host::arrive_barrier(int coordinator, std::uint64_t key, std::uint64_t epoch,
                          std::uint64_t members) {
  std::lock_guard<std::mutex> g(engine_.mutex());
  send_control(coordinator, Kind::barrier_arrive, key, epoch, members);
}

void Host::wait_barrier(std::unique_lock<std::mutex> &lk, std::uint64_t key, std::uint64_t epoch) {
  auto k = std::make_pair(key, epoch);
  engine_.wait_until(lk, [&] {
    auto it = released_.find(k);
    return (it != released_.end() && it->second > 0) || failed_.count(k) || stopping_;
  });
  auto it = released_.find(k);
  if (it == released_.end() || it->second == 0) {
    if (auto f = failed_.find(k); f != failed_.end()) {
      std::string text = f->second.second;
      if (--f->second.first == 0)
        failed_.erase(f);
      throw remote_error("poc::barrier_abandoned", text);
    }
    throw usage_error("poc: the program ended while a process waited at a barrier");
  }
  if (--it->second == 0)
    released_.erase(it);
}

void Host::abandon_barriers(int coordinator, std::uint64_t key, std::uint64_t epoch,
                            const std::string &text) {
  std::lock_guard<std::mutex> g(engine_.mutex());
  if (coordinator == rank())
    fail_barriers_locked(key, epoch, text);
  else
    send_control(coordinator, Kind::barrier_abandon, key, epoch, 0, &text, Status::exception);
}

void Host::fail_barriers_locked(std::uint64_t key, std::uint64_t epoch, const std::string &text) {
  auto [ab, added] = abandoned_.try_emplace(key, Abandoned{epoch, text});
  if (!added) {
    // The earliest barrier that cannot complete decides (a member whose
    // barrier failed abandons the next one too).
    if (epoch >= ab->second.epoch)
      return;
    ab->second = Abandoned{epoch, text};
  }
  for (auto it = arrivals_.lower_bound({key, epoch});
       it != arrivals_.end() && it->first.first == key;) {
    for (auto [dest, n] : it->second.per_host)
      send_control(dest, Kind::barrier_release, key, it->first.second, n, &text, Status::exception);
    it = arrivals_.erase(it);
  }
}

void Host::abandon_if_member(const Process &p, const std::string &event) noexcept {
  if (!p.object || !p.cls->group_member)
    return;
  detail::abandon_barriers(*p.cls->group_member(p.object),
                           "(process " + id_text(p.id) + ") " + event);
}

// ---------------------------------------------------------------- shutdown

void Host::begin_shutdown_locked() {
  if (stopping_)
    return;
  stopping_ = true;
  for (const Child &child : children_)
    send_control(child.host, Kind::shutdown, 0, 0, 0);
  std::vector<std::unique_ptr<Message>> dead;
  for (auto &[id, queue] : pending_)
    for (auto &m : queue)
      reject(std::move(m), "poc::usage_error", "the program has ended", dead);
  pending_.clear();
  engine_.notify_locked();
  // `dead` holds requests whose blocks must be drained; with the mutex held
  // that could stall the poller, so hand them to the calling thread's end.
  for (auto &m : dead)
    graveyard_.push_back(std::move(m));
}

std::size_t Host::reporting_hosts_locked() const {
  std::size_t ranks =
      engine_.parent() < 0 && rank() == 0 ? static_cast<std::size_t>(engine_.size() - 1) : 0;
  return ranks + children_.size();
}

void Host::drain_locked(std::unique_lock<std::mutex> &lk) {
  engine_.wait_until(lk, [&] { return running_threads_ == 0; }, WaitRole::idle);
  // Every host still serves (nobody finishes before all are done), so the
  // hosts this one connected to answer the close handshakes.
  lk.unlock();
  connections_.close_all(std::chrono::seconds(5));
  lk.lock();
  engine_.wait_until(lk, [&] { return hosts_done_ >= reporting_hosts_locked(); }, WaitRole::idle);
}

void Host::end_job() {
  std::unique_lock<std::mutex> lk(engine_.mutex());
  for (int r = 1; r < engine_.size(); ++r)
    send_control(r, Kind::shutdown, 0, 0, 0);
  begin_shutdown_locked();
  drain_locked(lk);
  for (int r = 1; r < engine_.size(); ++r)
    send_control(r, Kind::finish, 0, 0, 0);
  for (const Child &child : children_)
    send_control(child.host, Kind::finish, 0, 0, 0);
  finished_ = true;
  auto graves = std::move(graveyard_);
  lk.unlock();
}

void Host::serve_until_finished() {
  std::unique_lock<std::mutex> lk(engine_.mutex());
  engine_.wait_until(lk, [&] { return stopping_; }, WaitRole::idle);
  drain_locked(lk);
  // The job's ranks report to rank 0, spawned hosts to their parent.
  send_control(engine_.parent() >= 0 ? engine_.parent() : 0, Kind::shutdown_done, 0, 0, 0);
  engine_.wait_until(lk, [&] { return finished_; }, WaitRole::idle);
  auto graves = std::move(graveyard_);
  lk.unlock();
}

void Host::join_all() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> g(engine_.mutex());
    for (auto &w : workers_) {
      w->exit = true;
      w->cv.notify_one();
      if (w->thread.joinable())
        threads.push_back(std::move(w->thread));
    }
    for (auto &t : main_context_.tasks)
      if (t.joinable())
        threads.push_back(std::move(t));
    main_context_.tasks.clear();
  }
  for (auto &t : threads)
    t.join();
}

} // namespace poc::detail
