//===- tests/persist/object_test.cpp - Serializable objects in the store --===//
#include "poc/persist/object.hpp"
#include "temp_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace poc::persist;
using poc::persist::testing::TempDir;
using ::testing::HasSubstr;

namespace {

/// A class that serializes itself, like a hand-written process class.
struct PageDevice {
  int id = 0;
  std::string path;
  std::vector<double> cache; // large: travels out of band

  void poc_write(poc::Writer &w) const { w.write_all(id, path, cache); }
  void poc_read(poc::Reader &r) { r.read_all(id, path, cache); }
  friend bool operator==(const PageDevice &, const PageDevice &) = default;
};

/// A class serialized by a Serializer specialisation, the way the compiler
/// generates them.
struct Counter {
  long count = 0;
  std::map<std::string, int> seen;
};

constexpr std::uint64_t PageLayout = 0x1111;
constexpr std::uint64_t CounterLayout = 0x2222;

} // namespace

template <> struct poc::Serializer<Counter> {
  static void write(poc::Writer &w, const Counter &c) { w.write_all(c.count, c.seen); }
  static void read(poc::Reader &r, Counter &c) { r.read_all(c.count, c.seen); }
};

namespace {

class ObjectTest : public ::testing::Test {
protected:
  TempDir Dir;
  Store S{Dir.path()};
};

TEST_F(ObjectTest, RoundTripWithOutOfBandBlocks) {
  PageDevice d{34, "/data/pages/34", std::vector<double>(300000)};
  for (std::size_t i = 0; i < d.cache.size(); ++i)
    d.cache[i] = 0.5 * static_cast<double>(i);
  poc::Writer probe;
  probe.write(d);
  ASSERT_FALSE(probe.out_of_band().empty()); // the path this test is about
  auto a = Address::parse("data/set/PageDevice/34");
  save_object(S, a, "PageDevice", PageLayout, d);

  PageDevice back;
  RecordInfo info = load_object(S, a, "PageDevice", PageLayout, back);
  EXPECT_EQ(back, d);
  EXPECT_EQ(info.class_name, "PageDevice");
  EXPECT_GT(info.payload_size, d.cache.size() * sizeof(double));
}

TEST_F(ObjectTest, RoundTripThroughSerializerSpecialisation) {
  Counter c{42, {{"a", 1}, {"b", 2}}};
  auto a = Address::parse("counters/main");
  save_object(S, a, "Counter", CounterLayout, c);
  Counter back;
  load_object(S, a, "Counter", CounterLayout, back);
  EXPECT_EQ(back.count, 42);
  EXPECT_EQ(back.seen, c.seen);
}

TEST_F(ObjectTest, ChangedLayoutIsAClearError) {
  auto a = Address::parse("counters/main");
  save_object(S, a, "Counter", CounterLayout, Counter{1, {}});
  Counter back;
  try {
    load_object(S, a, "Counter", CounterLayout + 1, back);
    FAIL();
  } catch (const store_error &e) {
    EXPECT_EQ(e.kind(), store_errc::layout_mismatch);
    EXPECT_THAT(e.what(), HasSubstr("object 'counters/main'"));
  }
}

TEST_F(ObjectTest, StateThatDoesNotDecodeIsAClearError) {
  // A class whose layout changed without its hash changing: the decoder
  // notices instead of misreading.
  auto a = Address::parse("mislabelled");
  save_object(S, a, "Counter", CounterLayout, Counter{7, {{"x", 1}}});
  PageDevice wrong;
  try {
    load_object(S, a, "Counter", CounterLayout, wrong);
    FAIL();
  } catch (const store_error &e) {
    EXPECT_EQ(e.kind(), store_errc::corrupt);
    EXPECT_THAT(e.what(), HasSubstr("object 'mislabelled'"));
    EXPECT_THAT(e.what(), HasSubstr("does not decode as Counter"));
  }
}

TEST_F(ObjectTest, RawRecordsThatAreNotFramedAreRejected) {
  auto a = Address::parse("raw");
  std::vector<std::byte> junk(5, std::byte{1});
  S.save(a, "Counter", CounterLayout, junk);
  Counter back;
  EXPECT_THROW(load_object(S, a, "Counter", CounterLayout, back), store_error);
  std::vector<std::byte> too_long(16, std::byte{0xff});
  S.save(a, "Counter", CounterLayout, too_long);
  EXPECT_THROW(load_object(S, a, "Counter", CounterLayout, back), store_error);
}

} // namespace
