//===- memory_page_store.cpp - Pages in process memory --------------------===//
///
/// The DRAM tier: each page is its own AlignedBuffer, allocated on first
/// write, so that a device sized for the worst case costs memory only for the
/// pages actually stored. A read lends the page itself (Page::borrow), held
/// by reference count, so a page server sends it from where it lies; a page
/// that is lent when it is written or shared (LocalPages) gets fresh storage
/// first, and the lent one lives on, unchanged, until its last holder (a
/// send in flight, a reader's page) lets go.
///
//===----------------------------------------------------------------------===//

#include "page_store.hpp"

#include <cstring>
#include <mutex>
#include <vector>

namespace pocstd::detail {

namespace {
class MemoryPageStore final : public PageStore {
public:
  MemoryPageStore(std::size_t pages, std::size_t pageSize) : pages_(pages), pageSize_(pageSize) {}

  void read(std::size_t index, Page &into) override {
    std::lock_guard<std::mutex> lock(pagesLock_);
    std::shared_ptr<AlignedBuffer> &page = pages_[index];
    if (!page)
      page = std::make_shared<AlignedBuffer>(pageSize_);
    into.borrow(page);
  }

  void write(std::size_t index, const AlignedBuffer &from) override {
    std::memcpy(unlent(index, Contents::Replaced), from.data(), pageSize_);
  }

  std::byte *sharedPage(std::size_t index) override { return unlent(index, Contents::Kept); }

  // Memory pages end with the process; there is nothing to make durable.
  void flush() override {}

  bool directIO() const override { return false; }

private:
  /// What unlent does with the bytes of a page it replaces.
  enum class Contents { Kept, Replaced };

  /// Page \p index's memory, which nobody else holds: allocated (zeroed) on
  /// first use, and replaced if it is lent (by a copy of it when the
  /// contents are Kept). The device's process and the threads sharing its
  /// pages may call this at once. The count cannot rise behind the lock
  /// (only read lends, under it), so a page seen unshared stays unshared.
  std::byte *unlent(std::size_t index, Contents contents) {
    std::lock_guard<std::mutex> lock(pagesLock_);
    std::shared_ptr<AlignedBuffer> &page = pages_[index];
    if (!page)
      page = std::make_shared<AlignedBuffer>(pageSize_);
    else if (page.use_count() > 1)
      page = std::make_shared<AlignedBuffer>(contents == Contents::Kept
                                                 ? AlignedBuffer(*page)
                                                 : AlignedBuffer::forOverwrite(pageSize_));
    return page->data();
  }

  std::mutex pagesLock_;
  std::vector<std::shared_ptr<AlignedBuffer>> pages_;
  std::size_t pageSize_;
};
} // namespace

std::unique_ptr<PageStore> makeMemoryPageStore(std::size_t pages, std::size_t pageSize) {
  return std::make_unique<MemoryPageStore>(pages, pageSize);
}

} // namespace pocstd::detail
