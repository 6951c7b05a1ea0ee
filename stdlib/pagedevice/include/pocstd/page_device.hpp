//===- pocstd/page_device.hpp - Pages stored by index -------------*- C++ -*-===//
///
/// \file
/// PageDevice (paper section 2.2): NumberOfPages pages of PageSize bytes on
/// one medium, addressed by PageIndex. An ordinary class; created with
/// `new(machine) PageDevice(...)` it becomes a page server process on that
/// machine, and its methods are then called remotely with the same syntax.
///
/// A file device can also be a persistent process (created with
/// `new(poc::persistent_at(machine, address)) PageDevice(...)`,
/// docs/stdlib.md "Persistent page devices"): its saved state is what
/// describes the medium (storage, page count and size), while the pages
/// themselves stay in the file.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/device_stats.hpp"
#include "pocstd/page.hpp"
#include "pocstd/storage.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

namespace poc {
class Writer;
class Reader;
} // namespace poc

namespace pocstd {

namespace detail {
class PageStore;
}

/// Fixed-size pages on a file (direct I/O) or in memory.
class PageDevice {
public:
  /// A device with no medium and no pages, which every read and write
  /// refuses: what a persistent device's saved state is loaded into.
  PageDevice();
  /// Opens (creating if needed) \p storage for \p NumberOfPages pages of
  /// \p PageSize bytes. Throws std::invalid_argument for a zero count or size
  /// or a page over kMaxPageBytes, std::system_error when the file cannot be
  /// opened or sized.
  PageDevice(Storage storage, std::size_t NumberOfPages, std::size_t PageSize);
  virtual ~PageDevice();
  PageDevice(const PageDevice &) = delete;
  PageDevice &operator=(const PageDevice &) = delete;

  /// Stores \p p as page \p PageIndex. Throws page_error unless p.size() is
  /// PageSize, std::out_of_range for a bad index.
  virtual void write(const Page &p, std::size_t PageIndex);
  /// Reads page \p PageIndex into \p p, resizing it to PageSize (pass an empty
  /// Page: its contents on entry are ignored, and a remote call then sends
  /// nothing but the index). Throws std::out_of_range for a bad index.
  virtual void read(Page &p, std::size_t PageIndex);
  /// Makes every page written so far durable, so that it survives an
  /// operating-system crash too (fdatasync of the file; nothing for memory).
  /// A remote caller's earlier writes are served first (requests from one
  /// caller run in order), so they are covered. Throws std::system_error
  /// naming the file.
  void Flush();

  std::size_t NumberOfPages() const { return numberOfPages_; }
  std::size_t PageSize() const { return pageSize_; }
  /// The medium, as given to the constructor.
  Storage storage() const { return storage_; }
  /// True when a file device transfers with O_DIRECT (false for memory and
  /// for file systems that refuse direct I/O).
  bool directIO() const;
  DeviceStats stats() const;
  void resetStats();

  /// Saves the device's description (storage, NumberOfPages, PageSize),
  /// after flushing the file, so a saved device never claims pages that are
  /// not on the medium yet. Throws std::logic_error for a memory device (its
  /// pages end with the process, so it cannot be persistent).
  void poc_write(poc::Writer &w) const;
  /// Restores a saved description and reopens the file (as the constructor
  /// does). Throws poc::decode_error for an invalid description,
  /// std::system_error when the file cannot be opened.
  void poc_read(poc::Reader &r);

protected:
  /// True when LocalPages may share this device's pages: a memory device.
  /// A derived device whose process must see every access says no.
  virtual bool sharesPages() const;
  /// Checks \p PageIndex, naming \p operation in the error.
  void checkIndex(std::size_t PageIndex, const char *operation) const;
  /// Adds to the counters with \p update (derived devices count their own
  /// events, e.g. cache hits). The counters take a lock: a caching device
  /// reads the medium on a thread of its own.
  template <class Update> void countInStats(Update update) {
    std::lock_guard<std::mutex> lock(statsLock_);
    update(stats_);
  }

private:
  friend class LocalPages;
  /// The memory of page \p PageIndex for LocalPages (sharesPages() is
  /// true), counted in DeviceStats::pages_shared. Throws std::out_of_range
  /// for a bad index.
  std::byte *sharedPage(std::size_t PageIndex);

  Storage storage_;
  std::size_t numberOfPages_ = 0;
  std::size_t pageSize_ = 0;
  std::unique_ptr<detail::PageStore> store_;
  DeviceStats stats_;
  mutable std::mutex statsLock_;
  /// Pages handed out by sharedPage, from the sharing threads.
  std::atomic<std::uint64_t> pagesShared_{0};
};

} // namespace pocstd
