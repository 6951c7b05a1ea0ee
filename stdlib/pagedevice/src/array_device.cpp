//===- array_device.cpp - A page server with a read cache -----------------===//

#include "pocstd/array_device.hpp"

#include "page_cache.hpp"

#include <poc/serialize.hpp>

#include <stdexcept>
#include <string>

namespace pocstd {

namespace {
int checkedCacheSize(int Nc) {
  if (Nc < 0)
    throw std::invalid_argument("ArrayDevice: the cache size must not be "
                                "negative, got " +
                                std::to_string(Nc));
  return Nc;
}
} // namespace

ArrayDevice::ArrayDevice(Storage storage, std::size_t NumberOfPages, int n1, int n2, int n3, int Nc)
    : ArrayPageDevice(std::move(storage), NumberOfPages, n1, n2, n3),
      numberOfCachePages_(checkedCacheSize(Nc)) {
  makeCache();
}

// Out of line: the cache's type is complete only here.
ArrayDevice::ArrayDevice() = default;
ArrayDevice::~ArrayDevice() = default;

void ArrayDevice::makeCache() {
  cache_.reset();
  if (numberOfCachePages_ == 0)
    return;
  cache_ = std::make_unique<detail::PageCache>(
      static_cast<std::size_t>(numberOfCachePages_),
      // The medium's own read, not the cache's (read is virtual).
      [this](Page &p, std::size_t index) { PageDevice::read(p, index); },
      [this](double seconds) {
        countInStats([&](DeviceStats &s) {
          s.cache_fills += 1;
          s.cache_fill_seconds += seconds;
        });
      });
}

bool ArrayDevice::sharesPages() const {
  return numberOfCachePages_ == 0 && ArrayPageDevice::sharesPages();
}

void ArrayDevice::poc_write(poc::Writer &w) const {
  ArrayPageDevice::poc_write(w);
  w.write(numberOfCachePages_);
}

void ArrayDevice::poc_read(poc::Reader &r) {
  ArrayPageDevice::poc_read(r);
  int Nc = r.read<int>();
  if (Nc < 0)
    r.fail("ArrayDevice: saved cache size " + std::to_string(Nc) + " is negative");
  numberOfCachePages_ = Nc;
  makeCache();
}

std::size_t ArrayDevice::CachedPages() const { return cache_ ? cache_->size() : 0; }

void ArrayDevice::ReadIntoCache(std::size_t page_index) {
  checkIndex(page_index, "ReadIntoCache");
  if (cache_)
    cache_->prefetch(page_index);
}

void ArrayDevice::read(Page &p, std::size_t page_index) {
  checkIndex(page_index, "read");
  if (cache_ && cache_->take(page_index, p)) {
    countInStats([](DeviceStats &s) { s.cache_hits += 1; });
    return;
  }
  countInStats([](DeviceStats &s) { s.cache_misses += 1; });
  PageDevice::read(p, page_index);
}

void ArrayDevice::write(const Page &p, std::size_t page_index) {
  checkIndex(page_index, "write");
  // A cached copy would be stale; a load in flight must not land after the
  // write either.
  if (cache_)
    cache_->drop(page_index);
  PageDevice::write(p, page_index);
}

} // namespace pocstd
