#pragma once
/// \file
/// The threads that serve processes (docs/runtime.md section 7,
/// "Threads"): a process holds one only while it has requests, so a host
/// with thousands of idle processes has a few threads. A free thread waits
/// as one of the host's pollers, so the request that gives it a process
/// usually runs where it arrived. Guarded by the engine's mutex.

#include "transport/progress.hpp"

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace poc::detail {

struct Process;

class ThreadPool {
public:
  /// Runs a process's requests on the thread given to it; the mutex is
  /// held when it is called and when it returns.
  using Serve = std::function<void(Process &, HostLock &)>;

  ThreadPool(Progress &progress, Serve serve) : progress_(progress), serve_(std::move(serve)) {}
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// Starts `count` threads that wait for a process, so that the first
  /// requests find one.
  void prestart(std::size_t count, HostLock &lk);
  /// Gives `p` a thread: the calling thread if it is a free pool thread
  /// (it serves `p` once it stops polling), else an idle one, else a new
  /// one. With `reuse_busy` (the job is ending, and ending a process never
  /// waits for another) `p` waits for a busy thread instead of a new one.
  void assign(Process &p, bool reuse_busy, HostLock &lk);
  /// True if `p` is assigned to the calling thread, which serves it when
  /// it stops polling: nobody needs waking.
  static bool assigned_here(const Process &p) noexcept;
  /// Tells every thread to exit once it has no process; returns them, to
  /// be joined without the mutex.
  std::vector<std::thread> stop(HostLock &lk);

private:
  struct Worker {
    std::thread thread;
    /// The process it serves next.
    Process *assigned = nullptr;
    /// Waiting for a process and none assigned yet (it is then in idle_).
    bool free = false;
    bool exit = false;
  };

  void start_thread(Process *first);
  void run(Worker *w);

  /// The pool thread running on this thread, if it is one.
  static thread_local Worker *t_worker_;
  Progress &progress_;
  const Serve serve_;
  std::vector<std::unique_ptr<Worker>> workers_;
  /// Free threads.
  std::vector<Worker *> idle_;
  /// While the job ends: processes to serve once a thread is free.
  std::deque<Process *> waiting_;
};

} // namespace poc::detail
