// The client side of requests: synchronous and started calls, futures,
// creation and destruction (declared in <poc/transport.hpp>).

#include "calls.hpp"

#include "arena.hpp"
#include "placement.hpp"
#include "request_trace.hpp"
#include "transport/call_probes.hpp"

#include <poc/transport.hpp>

#include <cstdint>
#include <string>

namespace poc::detail {

ProcessId target_of(const void *p) {
  if (!p)
    throw usage_error("poc: call through a null reference");
  if (!is_remote(p))
    throw usage_error("poc: remote call on a local object");
  return remote_id(p);
}

void begin_message(Writer &w) { reserve_frame<RequestHead>(w); }

namespace {

MessagePtr owned(std::unique_ptr<Message> m) { return MessagePtr(m.release()); }

/// The reply `m` for its caller: the message, or the failure it carries
/// thrown as remote_error. A call that reached a deleted process says
/// which call it was (`what`, if given).
MessagePtr result_of(std::unique_ptr<Message> m, const char *what) {
  if (m->head<ReplyHead>().status == Status::failed) {
    Reader r(m->body());
    RemoteFailure failure = RemoteFailure::read(r);
    if (what && failure.is<usage_error>() && is_ended_text(failure.message))
      failure.message = std::string(what) + ": " + failure.message;
    std::rethrow_exception(failure.to_exception());
  }
  return owned(std::move(m));
}

/// The reply slot of a synchronous request, on its caller's stack and
/// registered for as long as it waits (Callers::add_waiting_slot).
class WaitingSlot {
public:
  WaitingSlot(Host &h, int peer) : h_(h) {
    slot_.peer = peer;
    HostLock lk = h.lock();
    h.callers().add_waiting_slot(slot_, lk);
  }
  /// Leaving without the reply (the send or the wait threw): nothing may
  /// fill the slot any more.
  ~WaitingSlot() {
    if (taken_)
      return;
    HostLock lk = h_.lock();
    if (!slot_.arrived)
      h_.callers().abandon_waiting_slot(slot_, sent_, lk);
  }
  WaitingSlot(const WaitingSlot &) = delete;
  WaitingSlot &operator=(const WaitingSlot &) = delete;
  ReplySlot *operator->() noexcept { return &slot_; }
  /// Its request has left: a reply may come even if nobody waits for it.
  void sent() noexcept { sent_ = true; }
  /// The reply, once it arrived (with the host mutex held, as `lk` says).
  std::unique_ptr<Message> take(HostLock &) noexcept {
    taken_ = true;
    return std::move(slot_.message);
  }

private:
  Host &h_;
  ReplySlot slot_;
  bool sent_ = false;
  /// The reply was taken, so the slot is no longer registered.
  bool taken_ = false;
};

} // namespace

MessagePtr request_reply(Host &h, Kind kind, RequestHead head, Writer &w, const char *what) {
  const int dest = head.target.host;
  h.connections().acquire(dest, true);
  WaitingSlot slot(h, dest);
  head.reply_token = slot->token;
  trace::Slice traced(trace_cat(kind), what);
  const std::uint32_t flow = trace_send(traced, h.rank(), head, w);
  // Without out-of-band blocks the engine takes the bytes: the caller
  // waits for the reply only, not for the send as well.
  std::shared_ptr<SendBatch> batch;
  try {
    POC_PROBE(request_sending);
    batch = h.engine().sender().send_writer(dest, kind, head, w, Sender::Sending::take, flow);
    slot.sent();
    POC_PROBE(request_sent);
  } catch (...) {
    HostLock lk = h.lock();
    h.connections().release(dest, lk);
    throw;
  }
  std::unique_ptr<Message> m;
  {
    HostLock lk = h.lock();
    h.wait_until(lk, [&] { return slot->arrived && (!batch || batch->pending == 0); });
    POC_PROBE(caller_resumed);
    m = slot.take(lk);
  }
  if (traced.active())
    traced.event().reply_bytes = m->body().size();
  MessagePtr result = result_of(std::move(m), what);
  POC_PROBE(call_returned);
  return result;
}

namespace {

/// Sends a started request (a call or a creation): it counts in the caller's
/// outstanding work until the target acknowledges it, when poc::sync() asks
/// (Completions), or replies to its future. Returns at once: the target
/// receives out-of-band blocks only when it serves the request, so a started
/// call whose caller waited for them would wait for a busy target, and two
/// processes starting large calls to each other from their methods would
/// wait for each other. The blocks are copied instead, and the engine keeps
/// the copies until sent.
/// Without blocks, it may wait to travel with the calls started after it
/// to the same host (Sending::may_wait), never behind a later message.
/// `what` names the request for its error ("ns::T::f"; null: unnamed).
void send_started(Host &h, Context &ctx, Kind kind, const RequestHead &head, Writer &w,
                  const char *what) {
  // A started call with a future is answered by a reply, the others by an
  // acknowledgement when asked for.
  const bool reply = head.reply_token != 0;
  const int dest = head.target.host;
  trace::Slice traced(trace_cat(kind), what);
  h.connections().acquire(dest, reply);
  HostLock lk = h.lock();
  h.callers().name_member(head.member, what, lk);
  h.callers().count_started(ctx, dest, reply, lk);
  lk.unlock();
  const std::uint32_t flow = trace_send(traced, h.rank(), head, w);
  try {
    h.engine().sender().send_writer(dest, kind, head, w, Sender::Sending::may_wait, flow);
  } catch (...) {
    lk.lock();
    h.callers().uncount_started(ctx, dest, reply, lk);
    if (reply)
      h.connections().release(dest, lk);
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
  Reader args(w.bytes().subspan(body_offset<RequestHead>()), &blocks);
  Writer out;
  out.set_out_of_band_threshold(SIZE_MAX);
  reserve_frame<ReplyHead>(out);
  Request rq(args, out);
  try {
    ctx.cls->dispatch(ctx.object, method, rq);
  } catch (const remote_error &) {
    throw;
  } catch (...) {
    std::rethrow_exception(RemoteFailure::current().to_exception());
  }
  Envelope e;
  e.kind = Kind::reply;
  seal(out, e, ReplyHead{});
  return owned(std::make_unique<Message>(h.rank(), out.take()));
}

} // namespace

MessagePtr call_sync(const void *target, std::uint64_t method, Writer &w, const char *what) {
  POC_PROBE(call_entered);
  Host &h = host();
  ProcessId id = target_of(target);
  Context &ctx = h.callers().current();
  if (ctx.self == id)
    return call_self(h, ctx, method, w);
  return request_reply(h, Kind::call, RequestHead{id, method, 0, 0, ctx.id}, w, what);
}

void call_start(const void *target, std::uint64_t method, Writer &w, const char *what) {
  Host &h = host();
  ProcessId id = target_of(target);
  Context &ctx = h.callers().current();
  send_started(h, ctx, Kind::start, RequestHead{id, method, 0, 0, ctx.id}, w, what);
}

std::shared_ptr<ReplySlot> call_start_future(const void *target, std::uint64_t method, Writer &w,
                                             const char *what) {
  Host &h = host();
  ProcessId id = target_of(target);
  Context &ctx = h.callers().current();
  auto slot = h.callers().new_reply_slot(id.host, ctx.id);
  slot->what = what;
  try {
    send_started(h, ctx, Kind::start_future, RequestHead{id, method, 0, slot->token, ctx.id}, w,
                 what);
  } catch (...) {
    h.callers().drop_reply_slot(slot->token);
    throw;
  }
  return slot;
}

bool reply_ready(const ReplySlot &slot) {
  HostLock lk = host().lock();
  return slot.arrived;
}

void reply_wait(ReplySlot &slot) {
  Host &h = host();
  HostLock lk = h.lock();
  h.wait_until(lk, [&] { return slot.arrived; });
}

MessagePtr reply_take(ReplySlot &slot) {
  Host &h = host();
  std::unique_ptr<Message> m;
  {
    HostLock lk = h.lock();
    h.wait_until(lk, [&] { return slot.arrived; });
    if (slot.taken)
      throw usage_error("poc: the result of this call was already taken");
    slot.taken = true;
    m = std::move(slot.message);
  }
  return result_of(std::move(m), slot.what);
}

void *create_process(std::type_index type, const machine &m, std::uint64_t ctor, Writer &w,
                     std::size_t min_bytes, bool started) {
  Host &h = host();
  const ClassInfo &cls = class_info(type);
  int dest = choose_host(m);
  ProcessId id = h.new_process_id(dest);
  void *ref = reference_to(id, min_bytes);
  Context &ctx = h.callers().current();
  RequestHead head{id, ctor, cls.key, 0, ctx.id};
  try {
    if (!started) {
      request_reply(h, Kind::create, head, w);
      return ref;
    }
    send_started(h, ctx, Kind::start_create, head, w, (cls.name + " (creation)").c_str());
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
  Context &ctx = h.callers().current();
  if (ctx.self == id)
    throw usage_error("poc: process " + id_text(id) + " cannot delete itself");
  Writer w;
  begin_message(w);
  request_reply(h, Kind::destroy, RequestHead{id, 0, 0, 0, ctx.id}, w);
  note_destroyed(id.host);
}

} // namespace poc::detail
