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

/// Waits until `ready()` holds, taking part in this host's message
/// progress meanwhile: while the calling process waits it may be the thread
/// that receives and routes messages for the host, so waiting here never
/// starves other processes of this host of their mail (a plain
/// `std::condition_variable` wait would, docs/runtime.md section 7).
///
/// `ready` is evaluated under the host's progress lock, by this thread or by
/// whichever thread polls, so it must be cheap, must not block and must not
/// take a lock that is held while `notify_waiters()` is called: read atomics.
/// After changing what `ready` reads, call `notify_waiters()`.
void wait_until(const std::function<bool()> &ready);

/// Wakes the threads of this host waiting in `poc::wait_until` whose
/// condition now holds (also the poller napping in its idle back-off).
/// Without the runtime (`poc::running()` false) nobody can wait, and it
/// does nothing.
void notify_waiters();

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
