// The client side of requests: synchronous and started calls, futures,
// creation and destruction (declared in <poc/transport.hpp>).

#include "arena.hpp"
#include "host.hpp"
#include "placement.hpp"
#include <poc/serialize/type_name.hpp>

#include <cstdint>
#include <typeinfo>

#include <poc/transport.hpp>

#include <string>

namespace poc::detail {
namespace {

ProcessId target_of(const void *p) {
  if (!p)
    throw usage_error("poc: call through a null reference");
  if (!is_remote(p))
    throw usage_error("poc: remote call on a local object");
  return remote_id(p);
}

/// Sends request `w` with header `h`. With `wait_blocks` (or when the
/// message has out-of-band blocks) returns a batch to wait for before the
/// caller's memory may change; otherwise the engine owns the bytes.
std::shared_ptr<Engine::SendBatch> send_request(Engine &engine, int dest, WireHeader h, Writer &w,
                                                bool keep_writer, bool copy = false) {
  const auto &blocks = w.out_of_band();
  if (blocks.empty() && !keep_writer) {
    patch_header(w, h);
    engine.send_owned(dest, kRequestTag, w.take());
    return nullptr;
  }
  engine.announce_blocks(dest, blocks, h);
  patch_header(w, h);
  auto batch = std::make_shared<Engine::SendBatch>();
  if (!copy) {
    engine.send_batch(dest, kRequestTag, w.bytes(), blocks, h.oob_tag, batch);
    return batch;
  }
  std::vector<Writer::Block> copies;
  for (const auto &b : blocks) {
    const auto *data = static_cast<const std::byte *>(b.data);
    batch->owned.emplace_back(data, data + b.size);
    copies.push_back({batch->owned.back().data(), b.size});
  }
  batch->owned.push_back(w.take());
  engine.send_batch(dest, kRequestTag, batch->owned.back(), copies, h.oob_tag, batch);
  return batch;
}

[[noreturn]] void throw_remote(const Message &m) {
  Reader r(m.payload());
  std::string type = r.read<std::string>();
  std::string text = r.read<std::string>();
  throw remote_error(std::move(type), std::move(text));
}

/// Sends a request that is answered by a reply and waits for it.
MessagePtr request_reply(Host &h, const ProcessId &id, WireHeader hd, Writer &w) {
  h.connections().acquire(id.host, true);
  auto slot = h.new_reply_slot(0);
  slot->peer = id.host;
  hd.token = slot->token;
  std::shared_ptr<Engine::SendBatch> batch;
  try {
    batch = send_request(h.engine(), id.host, hd, w, true);
  } catch (...) {
    h.drop_reply_slot(slot->token);
    std::lock_guard<std::mutex> g(h.engine().mutex());
    h.connections().release_locked(id.host);
    throw;
  }
  MessagePtr m;
  {
    std::unique_lock<std::mutex> lk(h.engine().mutex());
    h.engine().wait_until(lk, [&] { return slot->arrived && batch->pending == 0; });
    m = std::move(slot->message);
  }
  if (m->header().status == Status::exception)
    throw_remote(*m);
  return m;
}

/// Sends a started request (a call or a creation): it counts in the caller's
/// outstanding work until the target acknowledges it, which poc::sync()
/// waits for. Returns at once: the target receives out-of-band blocks only
/// when it serves the request, so a started call whose caller waited for
/// them would wait for a busy target, and two processes starting large
/// calls to each other from their methods would wait for each other. The
/// blocks are copied instead, and the engine keeps the copies until sent.
void send_started(Host &h, Context &ctx, const ProcessId &id, const WireHeader &hd, Writer &w) {
  // A started call with a future is answered by a reply, the others by an
  // acknowledgement.
  const bool reply = hd.kind == Kind::start_future;
  h.connections().acquire(id.host, reply);
  std::unique_lock<std::mutex> lk(h.engine().mutex());
  ++ctx.outstanding;
  lk.unlock();
  try {
    send_request(h.engine(), id.host, hd, w, false, true);
  } catch (...) {
    lk.lock();
    --ctx.outstanding;
    if (reply)
      h.connections().release_locked(id.host);
    throw;
  }
}

/// A process calling itself through a reference: it serves one method at a
/// time, so queueing the call would wait forever; run it directly, as a
/// local call would, with the same encoding (and errors as remote_error).
MessagePtr call_self(Host &h, Context &ctx, std::uint64_t method, Writer &w) {
  if (!ctx.object)
    throw usage_error("poc: a process called itself before its constructor finished");
  MemoryBlockSource blocks(w.out_of_band());
  Reader args(w.bytes().subspan(sizeof(WireHeader)), &blocks);
  Writer out;
  out.set_out_of_band_threshold(SIZE_MAX);
  begin_message(out);
  Request rq(args, out);
  try {
    ctx.cls->dispatch(ctx.object, method, rq);
  } catch (const remote_error &) {
    throw;
  } catch (const std::exception &e) {
    throw remote_error(type_name(typeid(e)), e.what());
  }
  WireHeader hd;
  hd.kind = Kind::reply;
  patch_header(out, hd);
  return std::make_unique<Message>(h.rank(), out.take());
}

} // namespace

MessagePtr call_sync(const void *target, std::uint64_t method, Writer &w) {
  Host &h = host();
  ProcessId id = target_of(target);
  Context &ctx = h.current_context();
  if (ctx.self == id)
    return call_self(h, ctx, method, w);
  WireHeader hd;
  hd.kind = Kind::call;
  hd.target = id;
  hd.method = method;
  hd.context = ctx.id;
  return request_reply(h, id, hd, w);
}

void call_start(const void *target, std::uint64_t method, Writer &w) {
  Host &h = host();
  ProcessId id = target_of(target);
  Context &ctx = h.current_context();
  WireHeader hd;
  hd.kind = Kind::start;
  hd.target = id;
  hd.method = method;
  hd.context = ctx.id;
  send_started(h, ctx, id, hd, w);
}

std::shared_ptr<ReplySlot> call_start_future(const void *target, std::uint64_t method, Writer &w) {
  Host &h = host();
  ProcessId id = target_of(target);
  Context &ctx = h.current_context();
  auto slot = h.new_reply_slot(ctx.id);
  slot->peer = id.host;
  WireHeader hd;
  hd.kind = Kind::start_future;
  hd.target = id;
  hd.method = method;
  hd.context = ctx.id;
  hd.token = slot->token;
  try {
    send_started(h, ctx, id, hd, w);
  } catch (...) {
    h.drop_reply_slot(slot->token);
    throw;
  }
  return slot;
}

bool reply_ready(const ReplySlot &slot) {
  std::lock_guard<std::mutex> g(host().engine().mutex());
  return slot.arrived;
}

void reply_wait(ReplySlot &slot) {
  Host &h = host();
  std::unique_lock<std::mutex> lk(h.engine().mutex());
  h.engine().wait_until(lk, [&] { return slot.arrived; });
}

MessagePtr reply_take(ReplySlot &slot) {
  Host &h = host();
  MessagePtr m;
  {
    std::unique_lock<std::mutex> lk(h.engine().mutex());
    h.engine().wait_until(lk, [&] { return slot.arrived; });
    if (slot.taken)
      throw usage_error("poc: the result of this call was already taken");
    slot.taken = true;
    m = std::move(slot.message);
  }
  if (m->header().status == Status::exception)
    throw_remote(*m);
  return m;
}

void *create_process(std::type_index type, const machine &m, std::uint64_t ctor, Writer &w,
                     std::size_t min_bytes, bool started) {
  Host &h = host();
  const ClassInfo &cls = class_info(type);
  int dest = choose_host(m);
  ProcessId id = h.new_process_id(dest);
  void *ref = reference_to(id, min_bytes);
  Context &ctx = h.current_context();
  WireHeader hd;
  hd.kind = started ? Kind::start_create : Kind::create;
  hd.target = id;
  hd.method = ctor;
  hd.klass = cls.key;
  hd.aux = min_bytes;
  hd.context = ctx.id;
  try {
    if (!started) {
      request_reply(h, id, hd, w);
      return ref;
    }
    send_started(h, ctx, id, hd, w);
    return ref;
  } catch (...) {
    if (!started)
      note_destroyed(dest);
    throw;
  }
}

void destroy_process(const void *p) {
  Host &h = host();
  ProcessId id = target_of(p);
  Context &ctx = h.current_context();
  if (ctx.self == id)
    throw usage_error("poc: process " + id_text(id) + " cannot delete itself");
  WireHeader hd;
  hd.kind = Kind::destroy;
  hd.target = id;
  hd.context = ctx.id;
  Writer w;
  begin_message(w);
  request_reply(h, id, hd, w);
  note_destroyed(id.host);
}

} // namespace poc::detail

// ---------------------------------------------------------------- persistence

namespace poc::detail {
namespace {

persist::Address parse_address(std::string_view text) {
  try {
    return persist::Address::parse(text);
  } catch (const persist::store_error &e) {
    throw usage_error(e.what());
  }
}

/// The id of the persistent process at `address` on `m`. Every caller
/// derives the same id (host chosen from the address, serial from its hash
/// with the top bit set, which the per-rank serials of new processes never
/// reach), so they all name one process without asking a directory.
ProcessId persistent_id(const machine &m, const persist::Address &address) {
  std::uint64_t key = method_id(address.str());
  int h = host_for_key(m, key);
  return ProcessId{h, h, key | (std::uint64_t{1} << 63)};
}

} // namespace

const machine &any_machine() {
  static const machine m{""};
  return m;
}

void *activate_persistent(std::type_index type, const machine &m, std::string_view address,
                          std::size_t min_bytes) {
  Host &h = host();
  const ClassInfo &cls = class_info(type);
  persist::Address addr = parse_address(address);
  ProcessId id = persistent_id(m, addr);
  Writer w;
  begin_message(w);
  w.write(addr.str());
  WireHeader hd;
  hd.kind = Kind::activate;
  hd.target = id;
  hd.klass = cls.key;
  hd.aux = min_bytes;
  hd.context = h.current_context().id;
  MessagePtr reply = request_reply(h, id, hd, w);
  Reader r(reply->payload());
  bool found = r.read<bool>();
  r.expect_end();
  return found ? reference_to(id, min_bytes) : nullptr;
}

void *create_persistent(std::type_index type, const machine &m, std::string_view address,
                        std::uint64_t ctor, Writer &w, std::size_t min_bytes) {
  Host &h = host();
  const ClassInfo &cls = class_info(type);
  persist::Address addr = parse_address(address);
  ProcessId id = persistent_id(m, addr);
  WireHeader hd;
  hd.kind = Kind::persist_create;
  hd.target = id;
  hd.method = ctor;
  hd.klass = cls.key;
  hd.aux = min_bytes;
  hd.context = h.current_context().id;
  request_reply(h, id, hd, w);
  return reference_to(id, min_bytes);
}

void checkpoint_process(const void *p) {
  Host &h = host();
  ProcessId id = target_of(p);
  if (h.current_context().self == id)
    throw usage_error("poc: a persistent process cannot checkpoint itself inside its own method "
                      "(the save happens between methods; start a checkpoint from elsewhere)");
  Writer w;
  begin_message(w);
  WireHeader hd;
  hd.kind = Kind::checkpoint;
  hd.target = id;
  hd.context = h.current_context().id;
  request_reply(h, id, hd, w);
}

} // namespace poc::detail
