#include "callers.hpp"

#include "failure.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace poc::detail {
namespace {
thread_local Context *t_context = nullptr;
} // namespace

Callers::Callers(Engine &engine) : engine_(engine) {
  main_.id = 1;
  contexts_[1] = &main_;
}

Context &Callers::current() noexcept { return t_context ? *t_context : main_; }

void Callers::adopt(Context *ctx) noexcept { t_context = ctx; }

void Callers::add(Context &ctx, HostLock &) {
  ctx.id = next_context_++;
  contexts_[ctx.id] = &ctx;
}

void Callers::remove(const Context &ctx, HostLock &) { contexts_.erase(ctx.id); }

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

int Callers::on_reply(std::unique_ptr<Message> m, HostLock &lk) {
  auto it = slots_.find(m->head<ReplyHead>().token);
  if (it == slots_.end()) {
    fmt::print(stderr, "poc: host {}: dropped a reply from host {} for an unknown call\n",
               engine_.rank(), m->source());
    return -1;
  }
  std::shared_ptr<ReplySlot> slot = std::move(it->second);
  slots_.erase(it);
  if (slot->context) {
    auto c = contexts_.find(slot->context);
    if (c != contexts_.end())
      --c->second->outstanding;
  }
  slot->message = std::move(m);
  slot->arrived = true;
  engine_.progress().notify(lk);
  return slot->peer;
}

void Callers::on_ack(const Message &m, HostLock &lk) {
  const AckHead ack = m.head<AckHead>();
  auto c = contexts_.find(ack.caller);
  if (c == contexts_.end())
    return; // the caller has ended meanwhile
  Context &ctx = *c->second;
  try {
    Reader r(m.body());
    std::uint64_t n = r.read_size(1 << 20);
    for (std::uint64_t i = 0; i < n; ++i)
      ctx.errors.push_back(RemoteFailure::read(r).to_exception());
    r.expect_end();
  } catch (const std::exception &e) {
    fmt::print(stderr, "poc: host {}: malformed acknowledgement from host {}: {}\n", engine_.rank(),
               m.source(), e.what());
  }
  ctx.outstanding -= static_cast<std::int64_t>(ack.executed);
  engine_.progress().notify(lk);
}

} // namespace poc::detail
