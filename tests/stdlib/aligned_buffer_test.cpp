#include "pocstd/aligned_buffer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>

using pocstd::AlignedBuffer;

TEST(AlignedBuffer, AlignedAndZeroed) {
  AlignedBuffer b(10000);
  EXPECT_EQ(b.size(), 10000u);
  EXPECT_EQ(b.capacity(), 12288u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % AlignedBuffer::kAlignment, 0u);
  for (std::size_t i = 0; i < b.size(); ++i)
    ASSERT_EQ(b.data()[i], std::byte{0});
}

TEST(AlignedBuffer, EmptyHasNoStorage) {
  AlignedBuffer b;
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(b.capacity(), 0u);
  EXPECT_EQ(b.data(), nullptr);
}

TEST(AlignedBuffer, CopyIsDeepMoveEmpties) {
  AlignedBuffer a(100);
  a.data()[7] = std::byte{42};
  AlignedBuffer b(a);
  b.data()[7] = std::byte{1};
  EXPECT_EQ(a.data()[7], std::byte{42});
  AlignedBuffer c(std::move(a));
  EXPECT_EQ(c.data()[7], std::byte{42});
  EXPECT_EQ(a.size(), 0u);
  b = c;
  EXPECT_EQ(b.data()[7], std::byte{42});
}

TEST(AlignedBuffer, ResizeKeepsPrefixZeroesGrowthReusesStorage) {
  AlignedBuffer a(100);
  std::memset(a.data(), 0xff, 100);
  std::byte *storage = a.data();
  a.resize(10);
  a.resize(200);
  EXPECT_EQ(a.data(), storage);
  EXPECT_EQ(a.data()[9], std::byte{0xff});
  EXPECT_EQ(a.data()[10], std::byte{0});
  EXPECT_EQ(a.data()[199], std::byte{0});
  a.resize(5000);
  EXPECT_EQ(a.size(), 5000u);
  EXPECT_EQ(a.data()[9], std::byte{0xff});
  EXPECT_EQ(a.data()[4999], std::byte{0});
  a.resizeForOverwrite(100);
  EXPECT_EQ(a.size(), 100u);
}

TEST(AlignedBuffer, FreedStorageOfPageSizesIsReusedByItsThreadZeroedAsAsked) {
  // A capacity no other test of this program uses, so no storage another
  // test freed is waiting for it.
  constexpr std::size_t kPage = 129 * AlignedBuffer::kAlignment;
  std::byte *first = nullptr;
  {
    AlignedBuffer a(kPage);
    first = a.data();
    std::memset(a.data(), 0xff, kPage);
  }
  // The same thread's next buffer of that capacity gets the storage back,
  // zeroed again when the constructor promises zeros.
  AlignedBuffer b(kPage);
  EXPECT_EQ(b.data(), first);
  EXPECT_EQ(b.data()[0], std::byte{0});
  EXPECT_EQ(b.data()[kPage - 1], std::byte{0});
  // Another thread keeps its own: it never gets this thread's storage.
  std::byte *kept = b.data();
  {
    AlignedBuffer drop(std::move(b));
  }
  std::byte *other = nullptr;
  std::thread([&] {
    AlignedBuffer c = AlignedBuffer::forOverwrite(kPage);
    other = c.data();
  }).join();
  EXPECT_NE(other, kept);
  AlignedBuffer d = AlignedBuffer::forOverwrite(kPage);
  EXPECT_EQ(d.data(), kept);
}
