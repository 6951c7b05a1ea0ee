// poc::sync() and started local functions.

#include "affinity.hpp"
#include "host.hpp"
#include "trace/recorder.hpp"

#include <poc/sync.hpp>

namespace poc {

namespace detail {
namespace {
/// Waits until the calling process's started work has completed; returns
/// its errors.
std::vector<StartedError> finish_started_work() {
  Host &h = host();
  Context &ctx = h.callers().current();
  std::vector<StartedError> errors;
  std::vector<std::thread> tasks;
  {
    HostLock lk = h.lock();
    auto finished = [&] { return ctx.outstanding <= 0 && ctx.tasks_running == 0; };
    // The hosts acknowledge when asked; an acknowledgement that leaves some
    // unacknowledged (requests started meanwhile by the context's local
    // tasks) is followed by another query.
    for (h.callers().ask(ctx, lk); !finished(); h.callers().ask(ctx, lk))
      h.wait_until(
          lk, [&] { return finished() || h.callers().must_ask(ctx, lk); }, WaitRole::patient);
    errors.swap(ctx.errors);
    tasks.swap(ctx.tasks);
  }
  for (auto &t : tasks)
    t.join();
  return errors;
}
} // namespace

void finish_main_tasks() {
  Host &h = host();
  Context &ctx = h.callers().main();
  std::vector<std::thread> tasks;
  {
    HostLock lk = h.lock();
    h.wait_until(lk, [&] { return ctx.tasks_running == 0; });
    tasks.swap(ctx.tasks);
  }
  for (auto &t : tasks)
    t.join();
}

void report_main_errors() {
  Host &h = host();
  std::vector<StartedError> errors;
  {
    HostLock lk = h.lock();
    errors.swap(h.callers().main().errors);
  }
  report_unwaited_errors(errors, "main");
}
} // namespace detail

void sync() {
  detail::trace::Slice traced(detail::trace::Cat::sync);
  std::vector<detail::StartedError> errors = detail::finish_started_work();
  if (!errors.empty())
    std::rethrow_exception(errors.front().error);
}

void wait_until(const std::function<bool()> &ready) {
  detail::Host &h = detail::host();
  detail::HostLock lk = h.lock();
  h.wait_until(lk, ready);
}

void notify_waiters() {
  if (!detail::host_exists())
    return;
  detail::Host &h = detail::host();
  detail::HostLock lk = h.lock();
  h.notify(lk);
}

namespace detail {

void start_local_task(std::function<void()> task) {
  Host &h = host();
  Context *ctx = &h.callers().current();
  HostLock lk = h.lock();
  ++ctx->tasks_running;
  ctx->tasks.emplace_back([&h, ctx, task = std::move(task)] {
    trace::name_thread("task");
    BusyThread busy;
    Callers::adopt(ctx);
    std::exception_ptr error;
    try {
      task();
    } catch (...) {
      error = std::current_exception();
    }
    HostLock task_lk = h.lock();
    if (error)
      ctx->errors.push_back({error, "a started local function"});
    --ctx->tasks_running;
    h.notify(task_lk);
  });
}

} // namespace detail
} // namespace poc
