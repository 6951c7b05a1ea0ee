//===- memory_page_store.cpp - Pages in process memory --------------------===//
///
/// The DRAM tier: each page is its own AlignedBuffer, allocated on first
/// write, so that a device sized for the worst case costs memory only for the
/// pages actually stored.
///
//===----------------------------------------------------------------------===//

#include "page_store.hpp"

#include <cstring>
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
    AlignedBuffer &page = pages_[index];
    if (page.size() == 0)
      page = AlignedBuffer(pageSize_);
    std::memcpy(page.data(), from.data(), pageSize_);
  }

  // Memory pages end with the process; there is nothing to make durable.
  void flush() override {}

  bool directIO() const override { return false; }

private:
  std::vector<AlignedBuffer> pages_;
  std::size_t pageSize_;
};
} // namespace

std::unique_ptr<PageStore> makeMemoryPageStore(std::size_t pages, std::size_t pageSize) {
  return std::make_unique<MemoryPageStore>(pages, pageSize);
}

} // namespace pocstd::detail
