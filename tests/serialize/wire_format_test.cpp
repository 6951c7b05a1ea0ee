//===- wire_format_test.cpp - Exact encodings of docs/serialization.md ----===//
#include "round_trip.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace {

using poc::test::bytes;
using poc::test::encode;

TEST(WireFormat, IntegersAreFixedWidthLittleEndian) {
  EXPECT_EQ(encode(std::int32_t{0x01020304}), bytes({4, 3, 2, 1}));
  EXPECT_EQ(encode(std::int16_t{-2}), bytes({0xFE, 0xFF}));
  EXPECT_EQ(encode(std::uint64_t{1}), bytes({1, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(encode(std::int8_t{-1}), bytes({0xFF}));
}

TEST(WireFormat, FloatingPointIsIeeeLittleEndian) {
  EXPECT_EQ(encode(1.0), bytes({0, 0, 0, 0, 0, 0, 0xF0, 0x3F}));
  EXPECT_EQ(encode(1.0f), bytes({0, 0, 0x80, 0x3F}));
}

TEST(WireFormat, BoolIsOneByte) {
  EXPECT_EQ(encode(true), bytes({1}));
  EXPECT_EQ(encode(false), bytes({0}));
}

TEST(WireFormat, EnumIsItsUnderlyingType) {
  enum class Color : std::uint16_t { Red = 0x0102 };
  EXPECT_EQ(encode(Color::Red), bytes({2, 1}));
  EXPECT_EQ(encode(std::byte{0xAB}), bytes({0xAB}));
}

TEST(WireFormat, SizesAreLeb128) {
  auto size = [](std::uint64_t n) {
    poc::Writer w;
    w.write_size(n);
    return w.take();
  };
  EXPECT_EQ(size(0), bytes({0}));
  EXPECT_EQ(size(127), bytes({0x7F}));
  EXPECT_EQ(size(128), bytes({0x80, 0x01}));
  EXPECT_EQ(size(300), bytes({0xAC, 0x02}));
  EXPECT_EQ(size(~std::uint64_t{0}),
            bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}));
}

TEST(WireFormat, StringIsBlockHeaderAndBytes) {
  // Header: byte length << 1, low bit 0 = inline.
  EXPECT_EQ(encode(std::string("ab")), bytes({4, 'a', 'b'}));
  EXPECT_EQ(encode(std::string()), bytes({0}));
}

TEST(WireFormat, BitwiseVectorIsOneBlock) {
  EXPECT_EQ(encode(std::vector<std::uint16_t>{1, 2}), bytes({8, 1, 0, 2, 0}));
}

TEST(WireFormat, OtherVectorsAreCountAndElements) {
  EXPECT_EQ(encode(std::vector<std::string>{"a", ""}), bytes({2, 2, 'a', 0}));
  EXPECT_EQ(encode(std::vector<bool>{true, false, true}), bytes({3, 0b101}));
}

TEST(WireFormat, MapIsCountThenKeyValuePairs) {
  std::map<std::uint8_t, bool> m{{1, true}, {2, false}};
  EXPECT_EQ(encode(m), bytes({2, 1, 1, 2, 0}));
}

TEST(WireFormat, OptionalAndVariantTags) {
  EXPECT_EQ(encode(std::optional<std::uint8_t>()), bytes({0}));
  EXPECT_EQ(encode(std::optional<std::uint8_t>(7)), bytes({1, 7}));
  EXPECT_EQ(encode(std::variant<std::uint8_t, bool>(true)), bytes({1, 1}));
}

TEST(WireFormat, ArraysHaveNoLength) {
  std::uint8_t c_array[3] = {1, 2, 3};
  EXPECT_EQ(encode(c_array), bytes({1, 2, 3}));
  EXPECT_EQ(encode(std::array<std::uint8_t, 2>{4, 5}), bytes({4, 5}));
}

TEST(WireFormat, ProcessIdIsSixteenBytes) {
  poc::ProcessId id{1, 2, 3};
  EXPECT_EQ(encode(id), bytes({1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0}));
}

} // namespace
