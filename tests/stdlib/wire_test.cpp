// The stdlib value types through the runtime's real poc::Writer/poc::Reader:
// what a remote call sends. Pages of 64 KiB and more go out of band.
#include "pocstd/array_page.hpp"
#include "pocstd/domain.hpp"
#include "pocstd/page_map.hpp"
#include "serialized.hpp"

#include <poc/serialize.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace pocstd;

using serialized::roundTrip;

TEST(Wire, SmallArrayPageInline) {
  ArrayPage p(2, 3, 4);
  p.at(1, 2, 3) = {7, 8};
  std::size_t blocks = 99;
  ArrayPage q = roundTrip(p, &blocks);
  EXPECT_EQ(blocks, 0u);
  EXPECT_EQ(q.n2(), 3);
  EXPECT_EQ(q.at(1, 2, 3), std::complex<double>(7, 8));
}

TEST(Wire, LargeArrayPageOutOfBand) {
  ArrayPage p(32, 32, 32); // 512 KiB
  p.at(31, 30, 29) = {1, -1};
  std::size_t blocks = 0;
  ArrayPage q = roundTrip(p, &blocks);
  EXPECT_EQ(blocks, 1u);
  EXPECT_EQ(q.at(31, 30, 29), std::complex<double>(1, -1));
}

TEST(Wire, EmptyPageIsTiny) {
  poc::Writer w;
  w.write(ArrayPage());
  EXPECT_LE(w.size(), 16u);
}

TEST(Wire, DomainAndPageMap) {
  Domain d(0, 128, 2432, 2560, 0, 16384);
  EXPECT_EQ(roundTrip(d), d);
  PageMap m(4, 5, 6, 7);
  PageMap n = roundTrip(m);
  EXPECT_EQ(n.PageAddress(3, 4, 5).page_index, m.PageAddress(3, 4, 5).page_index);
}

TEST(Wire, ShapeNotMatchingTheBytesIsADecodeError) {
  poc::Writer w;
  w.write(ArrayPage(2, 2, 2));
  std::vector<std::byte> bytes(w.bytes().begin(), w.bytes().end());
  int wrong = 3;
  std::memcpy(bytes.data(), &wrong, sizeof wrong); // n1 = 3: 3*2*2 != 8 elements
  poc::Reader r(bytes);
  ArrayPage q;
  EXPECT_THROW(r.read(q), poc::decode_error);
}

TEST(Wire, CorruptPageMapIsADecodeError) {
  poc::Writer w;
  w.write_all(2, -1, 2, 1);
  poc::Reader r(w.bytes());
  PageMap m;
  EXPECT_THROW(r.read(m), poc::decode_error);
}

TEST(Wire, TruncatedPageIsADecodeError) {
  poc::Writer w;
  w.write(ArrayPage(2, 2, 2));
  auto bytes = w.bytes();
  poc::Reader r(bytes.first(bytes.size() - 5));
  ArrayPage q;
  EXPECT_THROW(r.read(q), poc::decode_error);
}
