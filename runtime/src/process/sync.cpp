// poc::sync() and started local functions.

#include "host.hpp"

#include <poc/sync.hpp>

namespace poc {

void sync() {
  detail::Host &h = detail::host();
  detail::Context &ctx = h.callers().current();
  std::vector<std::exception_ptr> errors;
  std::vector<std::thread> tasks;
  {
    std::unique_lock<std::mutex> lk(h.engine().mutex());
    h.engine().wait_until(lk, [&] { return ctx.outstanding <= 0 && ctx.tasks_running == 0; });
    errors.swap(ctx.errors);
    tasks.swap(ctx.tasks);
  }
  for (auto &t : tasks)
    t.join();
  if (!errors.empty())
    std::rethrow_exception(errors.front());
}

void wait_until(const std::function<bool()> &ready) {
  detail::Host &h = detail::host();
  std::unique_lock<std::mutex> lk(h.engine().mutex());
  h.engine().wait_until(lk, ready);
}

void notify_waiters() {
  detail::Host &h = detail::host();
  std::lock_guard<std::mutex> g(h.engine().mutex());
  h.engine().notify_locked();
}

namespace detail {

void start_local_task(std::function<void()> task) {
  Host &h = host();
  Context *ctx = &h.callers().current();
  std::lock_guard<std::mutex> g(h.engine().mutex());
  ++ctx->tasks_running;
  ctx->tasks.emplace_back([&h, ctx, task = std::move(task)] {
    Callers::adopt(ctx);
    std::exception_ptr error;
    try {
      task();
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> g2(h.engine().mutex());
    if (error)
      ctx->errors.push_back(error);
    --ctx->tasks_running;
    h.engine().notify_locked();
  });
}

} // namespace detail
} // namespace poc
