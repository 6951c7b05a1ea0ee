//===- page_cache.hpp - ArrayDevice's prefetch cache (internal) ---*- C++ -*-===//
///
/// \file
/// PageCache holds the pages a client asked a device to prefetch
/// (ArrayDevice::ReadIntoCache) and loads them on a thread of its own. The
/// device's process therefore answers its other requests (sending cached
/// pages, storing writes) while the medium reads: measured out of core, a
/// device that read in its own thread kept its disk busy only ~60% of the
/// run, the rest spent in transfers it could not overlap.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/page.hpp"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace pocstd::detail {

/// Up to a fixed number of pages by index, loaded in the background.
class PageCache {
public:
  /// Loads page i into a page with \p load (called on the cache's thread;
  /// it may throw, and the page's take() then rethrows). \p loaded is
  /// called after each load with its seconds (on the cache's thread).
  PageCache(std::size_t capacity, std::function<void(Page &, std::size_t)> load,
            std::function<void(double)> loaded);
  /// Stops the thread; loads not started are abandoned.
  ~PageCache();
  PageCache(const PageCache &) = delete;
  PageCache &operator=(const PageCache &) = delete;

  /// Starts loading page \p index unless it is cached or loading; when the
  /// cache is full the oldest entry makes room (after its load, if it is
  /// still loading). Returns at once.
  void prefetch(std::size_t index);
  /// If page \p index is cached or loading: waits for its load, moves it
  /// into \p into, drops the entry and returns true (rethrowing the load's
  /// error instead, if it failed). False if it is not in the cache.
  bool take(std::size_t index, Page &into);
  /// Drops page \p index, after its load if it is loading (the caller is
  /// about to overwrite it on the medium).
  void drop(std::size_t index);
  /// Entries, loaded or loading.
  std::size_t size() const;

private:
  struct Entry {
    std::size_t index;
    Page page;
    bool loading = true;
    std::exception_ptr error;
  };
  /// The entry of \p index, or entries_.end() (lock held).
  std::deque<std::unique_ptr<Entry>>::iterator find(std::size_t index);
  /// Waits until \p e is loaded.
  void await(std::unique_lock<std::mutex> &lock, const Entry &e);
  void run();

  std::size_t capacity_;
  std::function<void(Page &, std::size_t)> load_;
  std::function<void(double)> loaded_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  /// Oldest first; entries are heap objects so that the thread's load
  /// writes to a page that stays put while others are added and dropped.
  std::deque<std::unique_ptr<Entry>> entries_;
  /// Entries to load, in the order asked.
  std::deque<Entry *> queue_;
  bool stop_ = false;
  std::thread thread_;
};

} // namespace pocstd::detail
