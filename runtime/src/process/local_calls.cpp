// Started calls on local objects (<poc/start_on.hpp>): one queue per
// object, served in order by one thread while it has calls.

#include "affinity.hpp"
#include "host.hpp"

#include <poc/serialize/type_name.hpp>
#include <poc/start_on.hpp>

#include <deque>
#include <unordered_map>

namespace poc::detail {
namespace {

struct QueuedCall {
  Context *caller;
  const std::type_info *type;
  std::unique_ptr<LocalCall> call;
};

/// The started calls of each object with a call running or queued; the
/// front call is the one running. Guarded by the host mutex.
std::unordered_map<const void *, std::deque<QueuedCall>> &object_queues() {
  static std::unordered_map<const void *, std::deque<QueuedCall>> queues;
  return queues;
}

/// Serves the calls queued on `object` until none is left.
void serve_object(Host &h, const void *object) {
  BusyThread busy;
  HostLock lk = h.lock();
  for (;;) {
    QueuedCall &front = object_queues().at(object).front();
    Context *caller = front.caller;
    const std::type_info &type = *front.type;
    std::unique_ptr<LocalCall> call = std::move(front.call);
    lk.unlock();
    Callers::adopt(caller);
    std::exception_ptr error;
    try {
      call->run();
    } catch (...) {
      error = std::current_exception();
    }
    call.reset();
    lk.lock();
    if (error)
      caller->errors.push_back({error, "a call started on a local " + type_name(type)});
    --caller->tasks_running;
    h.notify(lk);
    auto it = object_queues().find(object);
    it->second.pop_front();
    if (it->second.empty()) {
      object_queues().erase(it);
      return;
    }
  }
}

} // namespace

void start_on_object(const void *object, const std::type_info &type,
                     std::unique_ptr<LocalCall> call) {
  // Without the runtime (tests of code that links translations but never
  // runs poc::run) there is no other caller to order against and no sync():
  // the call runs now, as a call that was not started would.
  if (!host_exists()) {
    call->run();
    return;
  }
  Host &h = host();
  Context *caller = &h.callers().current();
  HostLock lk = h.lock();
  ++caller->tasks_running;
  auto [it, fresh] = object_queues().try_emplace(object);
  it->second.push_back({caller, &type, std::move(call)});
  if (fresh) // no thread serves the object: start one, joined by the caller's sync()
    caller->tasks.emplace_back([&h, object] { serve_object(h, object); });
}

void wait_for_started_calls(const void *object) noexcept {
  if (!host_exists())
    return;
  Host &h = host();
  HostLock lk = h.lock();
  h.wait_until(lk, [&] { return object_queues().count(object) == 0; });
}

} // namespace poc::detail
