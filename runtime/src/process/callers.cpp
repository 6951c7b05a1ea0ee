#include "callers.hpp"

#include "arena.hpp"
#include "failure.hpp"
#include "trace/recorder.hpp"

#include <poc/serialize/type_name.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iterator>
#include <utility>

namespace poc::detail {
namespace {
thread_local Context *t_context = nullptr;

/// The entry of `list` for `host`, or its end.
std::vector<Unacknowledged>::iterator find_host(std::vector<Unacknowledged> &list, int host) {
  return std::find_if(list.begin(), list.end(),
                      [&](const Unacknowledged &u) { return u.host == host; });
}
std::atomic<bool> g_unwaited_errors{false};
} // namespace

void report_unwaited_errors(const std::vector<StartedError> &errors, const std::string &whose) {
  for (const StartedError &e : errors) {
    std::string what;
    try {
      std::rethrow_exception(e.error);
    } catch (const remote_error &r) {
      // Cut short because the program ended first (refused, or ended at a
      // barrier, also inside a call the method made): not the call's error.
      const std::string &m = r.message();
      if (m.find("the program has ended") != std::string::npos ||
          m.find("the program ended") != std::string::npos)
        continue;
      what = r.type() + ": " + r.message();
    } catch (const std::exception &x) {
      what = type_name(typeid(x)) + ": " + x.what();
    } catch (...) {
      what = "an exception not derived from std::exception";
    }
    fmt::print(stderr,
               "poc: {} threw {}, and nobody waited for it (started by {}; wait with "
               "poc::sync() or a future)\n",
               e.call, what, whose);
    g_unwaited_errors = true;
  }
}

bool unwaited_errors_reported() noexcept { return g_unwaited_errors.load(); }

Callers::Callers(Engine &engine) : engine_(engine) {
  main_.id = 1;
  contexts_[1] = &main_;
}

Context &Callers::current() noexcept { return t_context ? *t_context : main_; }

Context *Callers::adopt(Context *ctx) noexcept {
  if (trace::on())
    trace::set_context_track(ctx ? ctx->trace_track : 0);
  return std::exchange(t_context, ctx);
}

void Callers::add(Context &ctx, HostLock &) {
  ctx.id = next_context_++;
  contexts_[ctx.id] = &ctx;
}

void Callers::remove(Context &ctx, HostLock &lk) {
  contexts_.erase(ctx.id);
  if (ctx.unacknowledged.empty())
    return;
  // Nobody will wait for them: asked for now, so that their errors are
  // reported soon and a host whose processes come and go keeps no list
  // per ended process until the end of the job.
  auto it = ended_.emplace(ctx.id, std::move(ctx.unacknowledged)).first;
  ask(ctx.id, it->second, lk);
}

void Callers::count_started(Context &ctx, int host, bool replied, HostLock &) {
  ++ctx.outstanding;
  ++unanswered_;
  if (replied)
    return;
  std::vector<Unacknowledged> &list = ctx.unacknowledged;
  if (auto it = find_host(list, host); it != list.end()) {
    // If asked already, it is asked for again once that query's
    // acknowledgement is back.
    ++it->count;
    return;
  }
  list.push_back({host, 1, false});
  ++unasked_;
}

void Callers::uncount_started(Context &ctx, int host, bool replied, HostLock &lk) {
  --ctx.outstanding;
  --unanswered_;
  engine_.progress().notify(lk);
  if (replied)
    return;
  // A query sent meanwhile (by another thread of the context) counted it,
  // and stays unanswered unless more requests follow; but a send fails
  // only when its host has died or the job ends, and then nobody waits.
  std::vector<Unacknowledged> &list = ctx.unacknowledged;
  auto it = find_host(list, host);
  if (it != list.end() && --it->count == 0 && !it->asked) {
    list.erase(it);
    --unasked_;
  }
}

void Callers::ask(std::uint64_t context, std::vector<Unacknowledged> &list, HostLock &lk) {
  for (Unacknowledged &u : list) {
    if (u.asked || u.count <= 0)
      continue;
    engine_.sender().send(u.host, Kind::ack_query,
                          AckQueryHead{context, static_cast<std::uint64_t>(u.count)}, {}, lk);
    u.asked = true;
    --unasked_;
  }
}

void Callers::ask(Context &ctx, HostLock &lk) { ask(ctx.id, ctx.unacknowledged, lk); }

bool Callers::must_ask(const Context &ctx, HostLock &) const noexcept {
  return std::any_of(ctx.unacknowledged.begin(), ctx.unacknowledged.end(),
                     [](const Unacknowledged &u) { return !u.asked && u.count > 0; });
}

void Callers::ask_all(HostLock &lk) {
  if (unasked_ <= 0)
    return;
  for (auto &[id, ctx] : contexts_)
    ask(id, ctx->unacknowledged, lk);
  for (auto &[id, list] : ended_)
    ask(id, list, lk);
}

void Callers::forget_acknowledged(std::vector<Unacknowledged> &list, int host,
                                  std::int64_t finished) {
  auto it = find_host(list, host);
  if (it == list.end())
    return;
  const bool was_unasked = !it->asked;
  it->asked = false;
  it->count -= finished;
  if (it->count > 0) {
    // Started after the query: asked for by the next one.
    if (!was_unasked)
      ++unasked_;
    return;
  }
  if (was_unasked)
    --unasked_;
  list.erase(it);
}

std::shared_ptr<ReplySlot> Callers::new_reply_slot(int peer, std::uint64_t context_to_credit) {
  auto slot = std::make_shared<ReplySlot>();
  slot->peer = peer;
  slot->context = context_to_credit;
  HostLock lk(engine_.progress());
  slot->token = next_token_++;
  slots_.emplace(slot->token, slot);
  return slot;
}

void Callers::drop_reply_slot(std::uint64_t token) {
  HostLock lk(engine_.progress());
  slots_.erase(token);
}

void Callers::add_waiting_slot(ReplySlot &slot, HostLock &) {
  slot.token = next_token_++ | kWaitingToken;
  waiting_slots_.push_back(&slot);
}

void Callers::abandon_waiting_slot(const ReplySlot &slot, bool sent, HostLock &) {
  auto it = std::find(waiting_slots_.begin(), waiting_slots_.end(), &slot);
  if (it == waiting_slots_.end())
    return;
  waiting_slots_.erase(it);
  if (!sent)
    return;
  auto stand_in = std::make_shared<ReplySlot>();
  stand_in->token = slot.token;
  stand_in->peer = slot.peer;
  slots_.emplace(stand_in->token, std::move(stand_in));
}

ReplySlot *Callers::take_slot(std::uint64_t token, std::shared_ptr<ReplySlot> &owner) {
  if (token & kWaitingToken) {
    auto it = std::find_if(waiting_slots_.rbegin(), waiting_slots_.rend(),
                           [&](const ReplySlot *s) { return s->token == token; });
    if (it != waiting_slots_.rend()) {
      ReplySlot *slot = *it;
      waiting_slots_.erase(std::next(it).base());
      return slot;
    }
  }
  // A slot of new_reply_slot, or the stand-in of an abandoned waiting one.
  auto it = slots_.find(token);
  if (it == slots_.end())
    return nullptr;
  owner = std::move(it->second);
  slots_.erase(it);
  return owner.get();
}

int Callers::on_reply(std::unique_ptr<Message> m, HostLock &lk) {
  std::shared_ptr<ReplySlot> owner;
  ReplySlot *slot = take_slot(m->head<ReplyHead>().token, owner);
  if (!slot) {
    fmt::print(stderr, "poc: host {}: dropped a reply from host {} for an unknown call\n",
               engine_.rank(), m->source());
    return -1;
  }
  if (slot->context) {
    --unanswered_;
    auto c = contexts_.find(slot->context);
    if (c != contexts_.end())
      --c->second->outstanding;
  }
  slot->message = std::move(m);
  slot->arrived = true;
  engine_.progress().notify(lk);
  return slot->peer;
}

void Callers::name_member(std::uint64_t member, const char *what, HostLock &) {
  if (what)
    member_names_.try_emplace(member, what);
}

void Callers::on_ack(const Message &m, HostLock &lk) {
  const AckHead ack = m.head<AckHead>();
  std::vector<StartedError> errors;
  try {
    Reader r(m.body());
    std::uint64_t n = r.read_size(1 << 20);
    for (std::uint64_t i = 0; i < n; ++i) {
      auto member = r.read<std::uint64_t>();
      RemoteFailure failure = RemoteFailure::read(r);
      auto name = member_names_.find(member);
      std::string call = name != member_names_.end()
                             ? name->second
                             : fmt::format("a started request (member {:#x})", member);
      // As for a call that was not started: which call reached an ended process.
      if (failure.is<usage_error>() && is_ended_text(failure.message))
        failure.message = call + ": " + failure.message;
      errors.push_back({failure.to_exception(), std::move(call)});
    }
    r.expect_end();
  } catch (const std::exception &e) {
    fmt::print(stderr, "poc: host {}: malformed acknowledgement from host {}: {}\n", engine_.rank(),
               m.source(), e.what());
  }
  const auto finished = static_cast<std::int64_t>(ack.executed);
  unanswered_ -= finished;
  auto c = contexts_.find(ack.caller);
  if (c == contexts_.end()) { // the caller has ended meanwhile
    if (auto e = ended_.find(ack.caller); e != ended_.end()) {
      forget_acknowledged(e->second, m.source(), finished);
      if (e->second.empty())
        ended_.erase(e);
    }
    engine_.progress().notify(lk);
    report_unwaited_errors(errors, "a process that has ended");
    return;
  }
  Context &ctx = *c->second;
  forget_acknowledged(ctx.unacknowledged, m.source(), finished);
  ctx.errors.insert(ctx.errors.end(), std::make_move_iterator(errors.begin()),
                    std::make_move_iterator(errors.end()));
  ctx.outstanding -= finished;
  engine_.progress().notify(lk);
}

} // namespace poc::detail
