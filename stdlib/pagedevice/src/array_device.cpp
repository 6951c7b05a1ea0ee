//===- array_device.cpp - A page server with a read cache -----------------===//

#include "pocstd/array_device.hpp"

#include "stopwatch.hpp"

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
      numberOfCachePages_(checkedCacheSize(Nc)) {}

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
  cache_.clear();
}

std::deque<ArrayDevice::CachedPage>::iterator ArrayDevice::find(std::size_t index) {
  for (auto it = cache_.begin(); it != cache_.end(); ++it)
    if (it->index == index)
      return it;
  return cache_.end();
}

void ArrayDevice::ReadIntoCache(std::size_t page_index) {
  checkIndex(page_index, "ReadIntoCache");
  if (numberOfCachePages_ == 0 || find(page_index) != cache_.end())
    return;
  detail::Stopwatch clock;
  Page page;
  if (cache_.size() == static_cast<std::size_t>(numberOfCachePages_)) {
    // Reuse the evicted page's buffer: no allocation in the steady state.
    page = std::move(cache_.front().page);
    cache_.pop_front();
  }
  PageDevice::read(page, page_index);
  cache_.push_back(CachedPage{page_index, std::move(page)});
  mutableStats().cache_fills += 1;
  mutableStats().cache_fill_seconds += clock.seconds();
}

void ArrayDevice::read(Page &p, std::size_t page_index) {
  checkIndex(page_index, "read");
  auto it = find(page_index);
  if (it == cache_.end()) {
    mutableStats().cache_misses += 1;
    PageDevice::read(p, page_index);
    return;
  }
  mutableStats().cache_hits += 1;
  p = std::move(it->page);
  cache_.erase(it);
}

void ArrayDevice::write(const Page &p, std::size_t page_index) {
  checkIndex(page_index, "write");
  auto it = find(page_index);
  if (it != cache_.end())
    cache_.erase(it);
  PageDevice::write(p, page_index);
}

} // namespace pocstd
