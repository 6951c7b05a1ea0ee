//===- page_store.hpp - Media behind a PageDevice (internal) ------*- C++ -*-===//
///
/// \file
/// PageStore is the medium-specific half of a PageDevice: fixed-size pages
/// addressed by index. PageDevice does the argument checking and accounting;
/// a store only moves bytes.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/aligned_buffer.hpp"
#include "pocstd/page.hpp"
#include "pocstd/storage.hpp"

#include <cstddef>
#include <memory>
#include <string>

namespace pocstd::detail {

/// NumberOfPages pages of PageSize bytes. Indices and buffer sizes are
/// checked by the caller (PageDevice).
class PageStore {
public:
  virtual ~PageStore() = default;
  /// Makes \p into page \p index (PageSize bytes): a copy, or for memory
  /// the store's own page lent (Page::borrow); a page never written reads
  /// as zeros.
  virtual void read(std::size_t index, Page &into) = 0;
  /// Stores the first PageSize bytes of \p from as page \p index.
  virtual void write(std::size_t index, const AlignedBuffer &from) = 0;
  /// Makes every page written so far durable (survive an operating-system
  /// crash, not only the death of the process); nothing to do for memory.
  virtual void flush() = 0;
  /// True when transfers bypass the kernel page cache (O_DIRECT).
  virtual bool directIO() const = 0;
  /// The memory holding page \p index, for a caller that copies to and from
  /// it directly, or null when the medium is not memory. Safe to call from
  /// several threads at once, and concurrently with read and write of other
  /// pages. A page lent by read is first replaced by a copy, so that what
  /// the caller writes never reaches a page that is being sent.
  virtual std::byte *sharedPage(std::size_t index) = 0;
};

/// How a file store treats its file.
enum class OpenFile {
  CreateOrReuse, ///< a new device: create the file if missing, grow it to size
  Existing,      ///< a restored device: the file must be there, at full size
};

std::unique_ptr<PageStore> makeMemoryPageStore(std::size_t pages, std::size_t pageSize);
std::unique_ptr<PageStore> makeFilePageStore(const std::string &path, std::size_t pages,
                                             std::size_t pageSize, bool direct, OpenFile how);

/// Opens the medium \p storage for \p pages pages of \p pageSize bytes; throws
/// std::system_error (with the path) when a file cannot be opened or sized,
/// or, for OpenFile::Existing, is missing or shorter than the pages need.
std::unique_ptr<PageStore> openPageStore(const Storage &storage, std::size_t pages,
                                         std::size_t pageSize,
                                         OpenFile how = OpenFile::CreateOrReuse);

} // namespace pocstd::detail
