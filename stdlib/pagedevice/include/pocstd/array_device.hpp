//===- pocstd/array_device.hpp - A page server with a read cache --*- C++ -*-===//
///
/// \file
/// ArrayDevice (paper section 4.3): an ArrayPageDevice with a server-side
/// cache of up to Nc pages. A client tells the server what it will read next
/// (`start server->ReadIntoCache(i)`), the server loads it from its medium
/// while the client computes, and the later read is answered from memory.
/// Requests from one client are served in order, so a write the client issues
/// after its ReadIntoCache calls runs after them, as in the paper. The loads
/// run on a thread of the device's own, so the process goes on serving (a
/// read waits for its page's load, a write of a page waits for the page's
/// load and then drops it).
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/array_page_device.hpp"
#include <poc/annotations.hpp>

#include <cstddef>
#include <memory>

namespace pocstd {

namespace detail {
class PageCache;
}

/// An ArrayPageDevice whose reads are served from a prefetch cache.
class POC_REMOTE ArrayDevice : public ArrayPageDevice {
public:
  /// A device with no medium (see PageDevice()).
  ArrayDevice();
  /// As ArrayPageDevice, with room for \p Nc cached pages (0 disables the
  /// cache: ReadIntoCache then does nothing). Throws std::invalid_argument
  /// for a negative \p Nc.
  ArrayDevice(Storage storage, std::size_t NumberOfPages, int n1, int n2, int n3, int Nc);

  /// Starts loading page \p page_index into the cache unless it is there
  /// already, and returns; when the cache is full the oldest entry makes
  /// room. Throws std::out_of_range for a bad index.
  void ReadIntoCache(std::size_t page_index);
  /// Serves page \p page_index from the cache when present (and drops it from
  /// the cache: a prefetched page is read once, then rewritten), waiting for
  /// its load if needed, otherwise from the medium. A failed load throws its
  /// error here.
  void read(Page &p, std::size_t page_index) override;
  /// Writes through to the medium and drops any cached copy, so the cache
  /// never returns stale data.
  void write(const Page &p, std::size_t page_index) override;

  ~ArrayDevice() override;

  int NumberOfCachePages() const { return numberOfCachePages_; }

protected:
  /// A caching device is never shared: its process must see every write to
  /// drop stale cached copies.
  bool sharesPages() const override;

public:
  /// Pages currently cached (or loading).
  std::size_t CachedPages() const;

  // The saved state (poc_write below): ArrayPageDevice's, then the cache
  // size (never the cached pages: a restored device starts with an empty
  // cache). poc++ derives its layout hash from the fields.
  void poc_write(poc::Writer &w) const;
  /// Throws poc::decode_error for a negative cache size.
  void poc_read(poc::Reader &r);

private:
  /// A cache for numberOfCachePages_ pages (none for 0).
  void makeCache();

  int numberOfCachePages_ = 0;
  std::unique_ptr<detail::PageCache> cache_;
};

} // namespace pocstd
