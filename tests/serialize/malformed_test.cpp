//===- malformed_test.cpp - Bad input ends in decode_error, never a crash -===//
#include "round_trip.hpp"
#include "shapes.hpp"

#include <array>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace {

using poc::test::bytes;

struct Point {
  int x = 0, y = 0;
  void poc_write(poc::Writer &w) const { w.write_all(x, y); }
  void poc_read(poc::Reader &r) { r.read_all(x, y); }
};

/// A message exercising every kind of encoding (tags, counts, blocks,
/// polymorphic names).
struct Message {
  std::int32_t id = 0;
  std::string name;
  std::vector<double> values;
  std::map<std::string, int> counts;
  std::optional<std::vector<std::string>> tags;
  std::variant<int, std::string, Point> choice;
  std::unique_ptr<shapes::Shape> shape;
  std::vector<bool> flags;
  std::set<int> ids;
  bool done = false;
  std::array<std::int16_t, 3> triple{};
  std::tuple<std::uint8_t, float> pair;
  std::deque<std::list<int>> lists;
  std::u16string wide;

  void poc_write(poc::Writer &w) const {
    w.write_all(id, name, values, counts, tags, choice, shape, flags, ids, done, triple, pair,
                lists, wide);
  }
  void poc_read(poc::Reader &r) {
    r.read_all(id, name, values, counts, tags, choice, shape, flags, ids, done, triple, pair, lists,
               wide);
  }
};

Message sample(int variant) {
  Message m;
  m.id = 42 + variant;
  m.name = "Grüße";
  m.values = {1.5, 2.5, 3.5};
  m.counts = {{"a", 1}, {"bb", 2}};
  if (variant != 1)
    m.tags = std::vector<std::string>{"x", "", "yz"};
  if (variant == 0)
    m.choice = Point{1, 2};
  else
    m.choice = std::string("choice");
  auto circle = std::make_unique<shapes::Circle>();
  circle->label = "round";
  circle->radius = 2;
  if (variant != 2)
    m.shape = std::move(circle);
  m.flags = {true, false, true, true, false, false, true, false, true};
  m.ids = {3, 1, 4};
  m.done = true;
  m.triple = {1, -2, 3};
  m.pair = {7, 0.25f};
  m.lists = {{1, 2}, {}, {3}};
  m.wide = u"wide";
  return m;
}

std::vector<std::byte> encoded_sample(int variant) {
  poc::Writer w;
  w.write(sample(variant));
  return w.take();
}

/// Decodes a Message from \p data; true on success, false on decode_error.
/// Any other exception fails the test.
bool try_decode(std::span<const std::byte> data) {
  try {
    poc::Reader r(data);
    Message m;
    r.read(m);
    r.expect_end();
    return true;
  } catch (const poc::decode_error &) {
    return false;
  }
}

TEST(Malformed, SampleMessagesDecode) {
  for (int variant = 0; variant < 3; ++variant)
    EXPECT_TRUE(try_decode(encoded_sample(variant)));
}

TEST(Malformed, TruncationAtEveryOffsetIsRejected) {
  for (int variant = 0; variant < 3; ++variant) {
    std::vector<std::byte> full = encoded_sample(variant);
    for (std::size_t n = 0; n < full.size(); ++n)
      EXPECT_FALSE(try_decode(std::span(full).first(n)))
          << "variant " << variant << " prefix " << n;
  }
}

TEST(Malformed, TrailingBytesAreRejected) {
  std::vector<std::byte> full = encoded_sample(0);
  full.push_back(std::byte{0});
  EXPECT_FALSE(try_decode(full));
}

TEST(Malformed, EverySingleByteCorruptionIsHandled) {
  // Each byte replaced by values that hit tags, varint continuation bits
  // and huge lengths: the result decodes or throws decode_error.
  for (int variant = 0; variant < 3; ++variant) {
    std::vector<std::byte> full = encoded_sample(variant);
    for (std::size_t i = 0; i < full.size(); ++i) {
      for (int value : {0x00, 0x01, 0x02, 0x03, 0x7F, 0x80, 0xFF, int(full[i]) ^ 0x01}) {
        std::vector<std::byte> corrupt = full;
        corrupt[i] = static_cast<std::byte>(value);
        try_decode(corrupt);
      }
    }
  }
}

template <class T> void expect_rejected(const std::vector<std::byte> &data) {
  poc::Reader r(data);
  T out{};
  EXPECT_THROW(
      {
        r.read(out);
        r.expect_end();
      },
      poc::decode_error);
}

std::vector<std::byte> varint(std::uint64_t n) {
  poc::Writer w;
  w.write_size(n);
  return w.take();
}

TEST(Malformed, HugeCountsAreRejectedBeforeAllocating) {
  for (std::uint64_t n : {std::uint64_t{1} << 20, std::uint64_t{1} << 40, ~std::uint64_t{0}}) {
    expect_rejected<std::vector<std::string>>(varint(n));
    expect_rejected<std::vector<Point>>(varint(n));
    expect_rejected<std::deque<int>>(varint(n));
    expect_rejected<std::list<std::vector<int>>>(varint(n));
    expect_rejected<std::map<int, int>>(varint(n));
    expect_rejected<std::unordered_map<std::string, int>>(varint(n));
    expect_rejected<std::set<int>>(varint(n));
    expect_rejected<std::vector<bool>>(varint(n));
    // Block headers: inline (even) and out-of-band (odd) lengths.
    expect_rejected<std::string>(varint(n << 1));
    expect_rejected<std::vector<double>>(varint(n << 1));
    expect_rejected<std::vector<double>>(varint((n << 1) | 1));
  }
}

TEST(Malformed, CountAboveMaxElementsIsRejected) {
  poc::Limits limits;
  limits.max_elements = 10;
  poc::Writer w;
  w.write(std::vector<std::monostate>(11));
  poc::Reader r(w.bytes(), nullptr, limits);
  EXPECT_THROW(r.read<std::vector<std::monostate>>(), poc::decode_error);
  // Elements that encode to no bytes are still bounded by max_elements.
  poc::Reader ok(w.bytes());
  EXPECT_EQ(ok.read<std::vector<std::monostate>>().size(), 11u);
}

TEST(Malformed, MessageAboveMaxMessageBytesIsRejected) {
  poc::Limits limits;
  limits.max_message_bytes = 4;
  std::vector<std::byte> five(5);
  EXPECT_THROW(poc::Reader(five, nullptr, limits), poc::decode_error);
}

TEST(Malformed, InvalidTagsAreRejected) {
  expect_rejected<bool>(bytes({2}));
  expect_rejected<bool>(bytes({0xFF}));
  expect_rejected<std::optional<int>>(bytes({2, 0, 0, 0, 0}));
  expect_rejected<std::variant<int, bool>>(bytes({2, 0}));
  expect_rejected<std::variant<int, bool>>(bytes({0x80, 0x80, 0x01}));
  expect_rejected<Point *>(bytes({3}));
  expect_rejected<std::unique_ptr<Point>>(bytes({3}));
  expect_rejected<std::shared_ptr<Point>>(bytes({0xFF}));
  expect_rejected<std::vector<bool>>(bytes({3, 0b1000}));        // padding bit set
  expect_rejected<std::u16string>(bytes({3 << 1, 'a', 0, 'b'})); // odd byte length
  expect_rejected<std::vector<double>>(bytes({7 << 1, 1, 2, 3, 4, 5, 6, 7}));
  enum class Flag : bool { Off, On };
  expect_rejected<Flag>(bytes({5}));
}

TEST(Malformed, OverlongVarintIsRejected) {
  expect_rejected<std::vector<int>>(
      bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02}));
  expect_rejected<std::vector<int>>(
      bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}));
  expect_rejected<std::string>(bytes({0x80}));
}

TEST(Malformed, DuplicateKeysAreRejected) {
  expect_rejected<std::map<int, int>>(bytes({2, 1, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 6, 0, 0, 0}));
  expect_rejected<std::set<std::string>>(bytes({2, 2, 'a', 2, 'a'}));
  expect_rejected<std::unordered_set<std::uint8_t>>(bytes({2, 9, 9}));
  // Multi-containers accept them.
  EXPECT_EQ(poc::test::decode<std::multiset<std::uint8_t>>(bytes({2, 9, 9})).size(), 2u);
}

/// A linked list through unique_ptr: each node nests one level deeper.
struct Node {
  std::unique_ptr<Node> next;
  void poc_write(poc::Writer &w) const { w.write(next); }
  void poc_read(poc::Reader &r) { r.read(next); }
};

/// A tree through vector: nesting without pointers.
struct Tree {
  std::vector<Tree> kids;
  void poc_write(poc::Writer &w) const { w.write(kids); }
  void poc_read(poc::Reader &r) { r.read(kids); }
};

TEST(Malformed, DeepNestingIsBoundedInsteadOfOverflowingTheStack) {
  std::vector<std::byte> deep_list(200000, std::byte{2});
  deep_list.push_back(std::byte{0});
  expect_rejected<std::unique_ptr<Node>>(deep_list);
  std::vector<std::byte> deep_tree(200000, std::byte{1});
  deep_tree.push_back(std::byte{0});
  expect_rejected<Tree>(deep_tree);

  // Within the limit both decode.
  std::vector<std::byte> list(300, std::byte{2});
  list.push_back(std::byte{0});
  EXPECT_NE(poc::test::decode<std::unique_ptr<Node>>(list), nullptr);
  std::vector<std::byte> tree(300, std::byte{1});
  tree.push_back(std::byte{0});
  EXPECT_EQ(poc::test::decode<Tree>(tree).kids.size(), 1u);
}

TEST(Malformed, ErrorsNameTheOffset) {
  std::vector<std::byte> r_data = bytes({1, 2, 3});
  poc::Reader r(r_data);
  r.read<std::uint8_t>();
  try {
    r.read<std::int32_t>();
    FAIL() << "expected decode_error";
  } catch (const poc::decode_error &e) {
    EXPECT_NE(std::string(e.what()).find("byte 1"), std::string::npos) << e.what();
  }
}

} // namespace
