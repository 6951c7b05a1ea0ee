//===- memory_page_store.cpp - Pages in process memory --------------------===//
///
/// The DRAM tier: each page is its own AlignedBuffer, allocated on first
/// write, so that a device sized for the worst case costs memory only for the
/// pages actually stored.
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

  void read(std::size_t index, AlignedBuffer &into) override {
    const AlignedBuffer &page = pages_[index];
    if (page.size() == 0)
      std::memset(into.data(), 0, pageSize_);
    else
      std::memcpy(into.data(), page.data(), pageSize_);
  }

  void write(std::size_t index, const AlignedBuffer &from) override {
    std::memcpy(allocated(index), from.data(), pageSize_);
  }

  std::byte *sharedPage(std::size_t index) override { return allocated(index); }

  // Memory pages end with the process; there is nothing to make durable.
  void flush() override {}

  bool directIO() const override { return false; }

private:
  /// Page \p index's memory, allocated (zeroed) on first use. The device's
  /// process and the threads sharing its pages may allocate at once.
  std::byte *allocated(std::size_t index) {
    std::lock_guard<std::mutex> lock(allocation_);
    AlignedBuffer &page = pages_[index];
    if (page.size() == 0)
      page = AlignedBuffer(pageSize_);
    return page.data();
  }

  std::mutex allocation_;
  std::vector<AlignedBuffer> pages_;
  std::size_t pageSize_;
};
} // namespace

std::unique_ptr<PageStore> makeMemoryPageStore(std::size_t pages, std::size_t pageSize) {
  return std::make_unique<MemoryPageStore>(pages, pageSize);
}

} // namespace pocstd::detail
