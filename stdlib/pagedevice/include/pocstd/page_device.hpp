//===- pocstd/page_device.hpp - Pages stored by index -------------*- C++ -*-===//
///
/// \file
/// PageDevice (paper section 2.2): NumberOfPages pages of PageSize bytes on
/// one medium, addressed by PageIndex. An ordinary class; created with
/// `new(machine) PageDevice(...)` it becomes a page server process on that
/// machine, and its methods are then called remotely with the same syntax.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/device_stats.hpp"
#include "pocstd/page.hpp"
#include "pocstd/storage.hpp"

#include <cstddef>
#include <memory>

namespace pocstd {

namespace detail {
class PageStore;
}

/// Fixed-size pages on a file (direct I/O) or in memory.
class PageDevice {
public:
  /// Opens (creating if needed) \p storage for \p NumberOfPages pages of
  /// \p PageSize bytes. Throws std::invalid_argument for a zero count or size
  /// or a page over kMaxPageBytes, std::system_error when the file cannot be
  /// opened or sized.
  PageDevice(Storage storage, std::size_t NumberOfPages, std::size_t PageSize);
  virtual ~PageDevice();
  PageDevice(const PageDevice&) = delete;
  PageDevice& operator=(const PageDevice&) = delete;

  /// Stores \p p as page \p PageIndex. Throws page_error unless p.size() is
  /// PageSize, std::out_of_range for a bad index.
  virtual void write(const Page& p, std::size_t PageIndex);
  /// Reads page \p PageIndex into \p p, resizing it to PageSize (pass an empty
  /// Page: its contents on entry are ignored, and a remote call then sends
  /// nothing but the index). Throws std::out_of_range for a bad index.
  virtual void read(Page& p, std::size_t PageIndex);

  std::size_t NumberOfPages() const { return numberOfPages_; }
  std::size_t PageSize() const { return pageSize_; }
  /// The medium, as given to the constructor.
  Storage storage() const { return storage_; }
  /// True when a file device transfers with O_DIRECT (false for memory and
  /// for file systems that refuse direct I/O).
  bool directIO() const;
  DeviceStats stats() const { return stats_; }
  void resetStats() { stats_ = DeviceStats{}; }

protected:
  /// Checks \p PageIndex, naming \p operation in the error.
  void checkIndex(std::size_t PageIndex, const char* operation) const;
  /// Counters, for derived devices that add their own (caching).
  DeviceStats& mutableStats() { return stats_; }

private:
  Storage storage_;
  std::size_t numberOfPages_;
  std::size_t pageSize_;
  std::unique_ptr<detail::PageStore> store_;
  DeviceStats stats_;
};

} // namespace pocstd
