//===- page_cache.cpp - ArrayDevice's prefetch cache ----------------------===//

#include "page_cache.hpp"

#include "stopwatch.hpp"

#include <algorithm>

namespace pocstd::detail {

PageCache::PageCache(std::size_t capacity, std::function<void(Page &, std::size_t)> load,
                     std::function<void(double)> loaded)
    : capacity_(capacity), load_(std::move(load)), loaded_(std::move(loaded)),
      thread_([this] { run(); }) {}

PageCache::~PageCache() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

std::deque<std::unique_ptr<PageCache::Entry>>::iterator PageCache::find(std::size_t index) {
  // A line's worth of pages is small: a linear search beats a hash map.
  return std::find_if(entries_.begin(), entries_.end(),
                      [&](const std::unique_ptr<Entry> &e) { return e->index == index; });
}

void PageCache::await(std::unique_lock<std::mutex> &lock, const Entry &e) {
  changed_.wait(lock, [&] { return !e.loading; });
}

void PageCache::prefetch(std::size_t index) {
  std::unique_lock<std::mutex> lock(mu_);
  if (capacity_ == 0 || find(index) != entries_.end())
    return;
  Page reused;
  if (entries_.size() == capacity_) {
    // The evicted page's buffer is reused: no allocation in the steady state.
    await(lock, *entries_.front());
    reused = std::move(entries_.front()->page);
    entries_.pop_front();
  }
  entries_.push_back(std::make_unique<Entry>(Entry{index, std::move(reused), true, nullptr}));
  queue_.push_back(entries_.back().get());
  changed_.notify_all();
}

bool PageCache::take(std::size_t index, Page &into) {
  std::unique_lock<std::mutex> lock(mu_);
  auto it = find(index);
  if (it == entries_.end())
    return false;
  Entry &e = **it;
  await(lock, e);
  std::exception_ptr error = e.error;
  if (!error)
    into = std::move(e.page);
  entries_.erase(find(index));
  if (error)
    std::rethrow_exception(error);
  return true;
}

void PageCache::drop(std::size_t index) {
  std::unique_lock<std::mutex> lock(mu_);
  auto it = find(index);
  if (it == entries_.end())
    return;
  await(lock, **it);
  entries_.erase(find(index));
}

std::size_t PageCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

void PageCache::run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    changed_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (stop_)
      return;
    Entry *e = queue_.front();
    queue_.pop_front();
    // The entry stays while it is loading: take, drop and eviction wait
    // for the load, so the page is ours until loading is cleared.
    lock.unlock();
    Stopwatch clock;
    std::exception_ptr error;
    try {
      load_(e->page, e->index);
    } catch (...) {
      error = std::current_exception();
    }
    double seconds = clock.seconds();
    if (!error)
      loaded_(seconds);
    lock.lock();
    e->error = error;
    e->loading = false;
    changed_.notify_all();
  }
}

} // namespace pocstd::detail
