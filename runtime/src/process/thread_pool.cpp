#include "thread_pool.hpp"

#include "trace/recorder.hpp"

#include <algorithm>
#include <utility>

namespace poc::detail {

thread_local ThreadPool::Worker *ThreadPool::t_worker_ = nullptr;

void ThreadPool::prestart(std::size_t count, HostLock &) {
  for (std::size_t i = 0; i < count; ++i)
    start_thread(nullptr);
}

void ThreadPool::start_thread(Process *first) {
  auto owned = std::make_unique<Worker>();
  owned->assigned = first;
  owned->thread = std::thread(&ThreadPool::run, this, owned.get());
  workers_.push_back(std::move(owned));
}

void ThreadPool::assign(Process &p, bool reuse_busy, HostLock &) {
  Worker *w = nullptr;
  if (t_worker_ && t_worker_->free) {
    w = t_worker_;
    idle_.erase(std::find(idle_.begin(), idle_.end(), w));
  } else if (!idle_.empty()) {
    w = idle_.back();
    idle_.pop_back();
  } else if (reuse_busy) {
    // A process per thread would start a thread per idle process.
    waiting_.push_back(&p);
    return;
  }
  if (w) {
    w->assigned = &p;
    w->free = false;
    return;
  }
  // Every thread is busy, maybe waiting for this very process: it gets a
  // thread of its own.
  start_thread(&p);
}

bool ThreadPool::assigned_here(const Process &p) noexcept {
  return t_worker_ && t_worker_->assigned == &p;
}

void ThreadPool::run(Worker *w) {
  t_worker_ = w;
  trace::name_thread("pool thread");
  HostLock lk(progress_);
  for (;;) {
    if (!w->assigned && !waiting_.empty()) {
      w->assigned = waiting_.front();
      waiting_.pop_front();
    }
    if (!w->assigned) {
      w->free = true;
      idle_.push_back(w);
      progress_.wait_until(lk, [&] { return w->assigned || w->exit; }, WaitRole::free);
      if (!w->assigned) {
        idle_.erase(std::find(idle_.begin(), idle_.end(), w));
        return;
      }
    }
    serve_(*std::exchange(w->assigned, nullptr), lk);
  }
}

std::vector<std::thread> ThreadPool::stop(HostLock &lk) {
  std::vector<std::thread> threads;
  for (auto &w : workers_) {
    w->exit = true;
    if (w->thread.joinable())
      threads.push_back(std::move(w->thread));
  }
  progress_.notify(lk);
  return threads;
}

} // namespace poc::detail
