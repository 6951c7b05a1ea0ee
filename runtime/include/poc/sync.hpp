#pragma once
/// \file
/// Completion of started work: `poc::sync()` and `start` of local functions.

#include <functional>
#include <tuple>
#include <utility>

namespace poc {

/// Waits until every call, creation and local task the calling process
/// started has completed, then throws the first error among them (a
/// `poc::remote_error`, or the exception a local task threw). Calls started
/// through `start_future` report their errors through their future instead.
void sync();

namespace detail {
/// Runs `task` on a new thread on behalf of the calling process; joined by
/// its next `poc::sync()`.
void start_local_task(std::function<void()> task);
} // namespace detail

/// `start f(args...)` of a local function: runs it concurrently; the calling
/// process's next `poc::sync()` waits for it and rethrows what it threw.
/// Arguments are copied (decayed) into the task.
template <class F, class... A> void start_local(F &&f, A &&...args) {
  detail::start_local_task(
      [fn = std::forward<F>(f), tup = std::make_tuple(std::forward<A>(args)...)]() mutable {
        std::apply(fn, std::move(tup));
      });
}

} // namespace poc
