#include "pocstd/array_device.hpp"
#include "pocstd/local_pages.hpp"

#include <gtest/gtest.h>

using namespace pocstd;

namespace {
ArrayPage pageOf(double v) {
  ArrayPage p(2, 2, 2);
  for (std::size_t i = 0; i < p.elements(); ++i)
    p.data()[i] = {v, double(i)};
  return p;
}
double first(const Page &p) {
  return reinterpret_cast<const ArrayPage::Element *>(p.bytes())->real();
}
} // namespace

TEST(ArrayDevice, ReadServedFromCache) {
  ArrayDevice dev(Storage::memory(), 4, 2, 2, 2, 2);
  dev.write(pageOf(1), 0);
  dev.write(pageOf(2), 1);
  dev.ReadIntoCache(0);
  dev.ReadIntoCache(0); // already cached: no second fill
  EXPECT_EQ(dev.CachedPages(), 1u);
  ArrayPage r;
  dev.read(r, 0);
  EXPECT_EQ(first(r), 1);
  dev.read(r, 1);
  EXPECT_EQ(first(r), 2);
  DeviceStats s = dev.stats();
  EXPECT_EQ(s.cache_fills, 1u);
  EXPECT_EQ(s.cache_hits, 1u);
  EXPECT_EQ(s.cache_misses, 1u);
  EXPECT_EQ(dev.CachedPages(), 0u); // a hit consumes the entry
}

TEST(ArrayDevice, WriteInvalidatesCachedCopy) {
  ArrayDevice dev(Storage::memory(), 2, 2, 2, 2, 4);
  dev.write(pageOf(1), 0);
  dev.ReadIntoCache(0);
  dev.write(pageOf(5), 0);
  ArrayPage r;
  dev.read(r, 0);
  EXPECT_EQ(first(r), 5);
}

TEST(ArrayDevice, EvictsOldestWhenFull) {
  ArrayDevice dev(Storage::memory(), 4, 2, 2, 2, 2);
  for (int i = 0; i < 4; ++i)
    dev.write(pageOf(i), static_cast<std::size_t>(i));
  dev.ReadIntoCache(0);
  dev.ReadIntoCache(1);
  dev.ReadIntoCache(2);
  EXPECT_EQ(dev.CachedPages(), 2u);
  ArrayPage r;
  dev.read(r, 0); // evicted: a miss
  EXPECT_EQ(first(r), 0);
  dev.read(r, 2);
  EXPECT_EQ(first(r), 2);
  EXPECT_EQ(dev.stats().cache_hits, 1u);
  EXPECT_EQ(dev.stats().cache_misses, 1u);
}

TEST(ArrayDevice, TransposingReadUsesCache) {
  ArrayDevice dev(Storage::memory(), 1, 2, 2, 2, 1);
  dev.write(pageOf(3), 0);
  dev.ReadIntoCache(0);
  ArrayPage r;
  dev.read_transpose13(r, 0);
  EXPECT_EQ(dev.stats().cache_hits, 1u);
  EXPECT_EQ(r.at(0, 0, 0).real(), 3);
}

TEST(ArrayDevice, NoCacheAndBadArguments) {
  ArrayDevice dev(Storage::memory(), 1, 2, 2, 2, 0);
  dev.ReadIntoCache(0);
  EXPECT_EQ(dev.CachedPages(), 0u);
  EXPECT_THROW(dev.ReadIntoCache(1), std::out_of_range);
  EXPECT_THROW(ArrayDevice(Storage::memory(), 1, 2, 2, 2, -1), std::invalid_argument);
}

TEST(LocalPages, SharesAMemoryDeviceWithoutACache) {
  ArrayDevice dev(Storage::memory(), 3, 2, 2, 2, 0);
  LocalPages pages = LocalPages::of(&dev);
  ASSERT_TRUE(pages);
  // A page never written reads as zeros, directly as through the device.
  EXPECT_EQ(reinterpret_cast<const ArrayPage::Element *>(pages.page(2))->real(), 0);
  dev.write(pageOf(5), 1);
  EXPECT_EQ(reinterpret_cast<const ArrayPage::Element *>(pages.page(1))->real(), 5);
  reinterpret_cast<ArrayPage::Element *>(pages.page(0))->real(7);
  ArrayPage r;
  dev.read(r, 0);
  EXPECT_EQ(first(r), 7);
  EXPECT_EQ(dev.stats().pages_shared, 3u);
  EXPECT_THROW(pages.page(3), std::out_of_range);
}

TEST(LocalPages, ACachingDeviceIsNotShared) {
  // Its process must see every write to drop stale cached copies.
  ArrayDevice caching(Storage::memory(), 2, 2, 2, 2, 1);
  EXPECT_FALSE(LocalPages::of(&caching));
  EXPECT_FALSE(LocalPages());
}
