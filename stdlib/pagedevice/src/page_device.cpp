//===- page_device.cpp - Pages stored by index ----------------------------===//

#include "pocstd/page_device.hpp"

#include "page_store.hpp"
#include "stopwatch.hpp"

#include <poc/serialize.hpp>

#include <limits>
#include <stdexcept>
#include <string>

namespace pocstd {

namespace {
std::size_t checkedPageSize(std::size_t pages, std::size_t pageSize) {
  if (pages == 0)
    throw std::invalid_argument("PageDevice: NumberOfPages must be positive");
  if (pageSize == 0 || pageSize > kMaxPageBytes)
    throw std::invalid_argument("PageDevice: PageSize must be in 1.." +
                                std::to_string(kMaxPageBytes) + ", got " +
                                std::to_string(pageSize));
  if (pages > std::numeric_limits<off_t>::max() / roundUpToAlignment(pageSize))
    throw std::invalid_argument("PageDevice: " + std::to_string(pages) + " pages of " +
                                std::to_string(pageSize) + " bytes exceed the largest file offset");
  return pageSize;
}
} // namespace

PageDevice::PageDevice(Storage storage, std::size_t NumberOfPages, std::size_t PageSize)
    : storage_(std::move(storage)), numberOfPages_(NumberOfPages),
      pageSize_(checkedPageSize(NumberOfPages, PageSize)),
      store_(detail::openPageStore(storage_, NumberOfPages, PageSize)) {}

PageDevice::PageDevice() = default;

PageDevice::~PageDevice() = default;

bool PageDevice::directIO() const { return store_ && store_->directIO(); }

DeviceStats PageDevice::stats() const {
  std::unique_lock<std::mutex> lock(statsLock_);
  DeviceStats s = stats_;
  lock.unlock();
  s.pages_shared = pagesShared_.load(std::memory_order_relaxed);
  return s;
}

void PageDevice::resetStats() {
  countInStats([](DeviceStats &s) { s = DeviceStats{}; });
  pagesShared_.store(0, std::memory_order_relaxed);
}

bool PageDevice::sharesPages() const { return store_ && storage_.medium == Medium::Memory; }

std::byte *PageDevice::sharedPage(std::size_t PageIndex) {
  checkIndex(PageIndex, "sharedPage");
  pagesShared_.fetch_add(1, std::memory_order_relaxed);
  return store_->sharedPage(PageIndex);
}

void PageDevice::Flush() {
  if (store_)
    store_->flush();
}

void PageDevice::poc_write(poc::Writer &w) const {
  if (storage_.medium != Medium::File)
    throw std::logic_error("PageDevice: only a file device can be saved; the pages of a " +
                           storage_.describe() + " device end with its process");
  store_->flush();
  w.write_all(storage_, numberOfPages_, pageSize_);
}

void PageDevice::poc_read(poc::Reader &r) {
  Storage storage;
  std::size_t pages = 0, pageSize = 0;
  r.read_all(storage, pages, pageSize);
  if (storage.medium != Medium::File)
    r.fail("PageDevice: the saved state names " + storage.describe() + ", not a file");
  try {
    checkedPageSize(pages, pageSize);
  } catch (const std::invalid_argument &e) {
    r.fail(e.what());
  }
  store_ = detail::openPageStore(storage, pages, pageSize, detail::OpenFile::Existing);
  storage_ = std::move(storage);
  numberOfPages_ = pages;
  pageSize_ = pageSize;
  resetStats();
}

void PageDevice::checkIndex(std::size_t PageIndex, const char *operation) const {
  if (PageIndex >= numberOfPages_)
    throw std::out_of_range(std::string("PageDevice::") + operation + ": page index " +
                            std::to_string(PageIndex) + " is out of range (the device has " +
                            std::to_string(numberOfPages_) + " pages)");
}

void PageDevice::write(const Page &p, std::size_t PageIndex) {
  checkIndex(PageIndex, "write");
  if (p.size() != pageSize_)
    throw page_error("PageDevice::write: page of " + std::to_string(p.size()) +
                     " bytes given to a device of " + std::to_string(pageSize_) + "-byte pages");
  detail::Stopwatch clock;
  store_->write(PageIndex, p.buffer());
  double seconds = clock.seconds();
  countInStats([&](DeviceStats &s) {
    s.write_seconds += seconds;
    s.pages_written += 1;
    s.bytes_written += pageSize_;
  });
}

void PageDevice::read(Page &p, std::size_t PageIndex) {
  checkIndex(PageIndex, "read");
  detail::Stopwatch clock;
  store_->read(PageIndex, p);
  double seconds = clock.seconds();
  countInStats([&](DeviceStats &s) {
    s.read_seconds += seconds;
    s.pages_read += 1;
    s.bytes_read += pageSize_;
  });
}

} // namespace pocstd
