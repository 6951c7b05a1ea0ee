//===- tests/persist/crc32c_test.cpp - CRC-32C checksums ------------------===//
#include "poc/persist/crc32c.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

using poc::persist::crc32c;
using poc::persist::crc32c_portable;

namespace {

TEST(Crc32c, KnownValues) {
  // RFC 3720 (iSCSI) appendix B.4 and the standard check value.
  std::string_view check = "123456789";
  EXPECT_EQ(crc32c(check.data(), check.size()), 0xe3069283u);
  EXPECT_EQ(crc32c_portable(check.data(), check.size()), 0xe3069283u);
  std::vector<unsigned char> zeros(32, 0), ones(32, 0xff), inc(32);
  for (int i = 0; i < 32; ++i)
    inc[i] = static_cast<unsigned char>(i);
  EXPECT_EQ(crc32c(zeros.data(), 32), 0x8a9136aau);
  EXPECT_EQ(crc32c(ones.data(), 32), 0x62a8ab43u);
  EXPECT_EQ(crc32c(inc.data(), 32), 0x46dd794eu);
  EXPECT_EQ(crc32c(nullptr, 0), 0u);
}

TEST(Crc32c, HardwareAndTablesAgreeOnAllLengthsAndAlignments) {
  std::mt19937 rng(7);
  std::vector<unsigned char> buf(300);
  for (auto &b : buf)
    b = static_cast<unsigned char>(rng());
  for (std::size_t off = 0; off < 8; ++off)
    for (std::size_t n = 0; off + n <= buf.size(); n += 7)
      ASSERT_EQ(crc32c(buf.data() + off, n), crc32c_portable(buf.data() + off, n))
          << off << " " << n;
}

TEST(Crc32c, InterleavedStreamsAgreeOnLargeBuffers) {
  // The hardware path merges three streams of 4 KiB blocks; cover lengths
  // around multiples of 12 KiB and unaligned starts.
  std::mt19937 rng(11);
  std::vector<unsigned char> buf(100000);
  for (auto &b : buf)
    b = static_cast<unsigned char>(rng());
  for (std::size_t off : {0, 1, 3, 8})
    for (std::size_t n : {12287, 12288, 12289, 24576 + 5, 36864, 99000})
      ASSERT_EQ(crc32c(buf.data() + off, n), crc32c_portable(buf.data() + off, n))
          << off << " " << n;
  std::uint32_t split = crc32c(buf.data() + 5000, 50000, crc32c(buf.data(), 5000));
  EXPECT_EQ(split, crc32c_portable(buf.data(), 55000));
}

TEST(Crc32c, Continues) {
  std::string_view s = "the quick brown fox jumps over the lazy dog";
  for (std::size_t cut = 0; cut <= s.size(); ++cut) {
    std::uint32_t first = crc32c(s.data(), cut);
    EXPECT_EQ(crc32c(s.data() + cut, s.size() - cut, first), crc32c(s.data(), s.size()));
    EXPECT_EQ(crc32c_portable(s.data() + cut, s.size() - cut, first), crc32c(s.data(), s.size()));
  }
}

} // namespace
