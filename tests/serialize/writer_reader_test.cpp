//===- writer_reader_test.cpp - Buffer management and low-level reads -----===//
#include "round_trip.hpp"

#include <string>
#include <utility>
#include <vector>

namespace {

using poc::test::bytes;

TEST(Writer, TakeReturnsTheMessageAndResets) {
  poc::Writer w;
  w.write(std::uint16_t{0x0201});
  EXPECT_EQ(w.take(), bytes({1, 2}));
  EXPECT_EQ(w.size(), 0u);
  w.write(std::uint8_t{9});
  EXPECT_EQ(w.take(), bytes({9}));
}

TEST(Writer, ClearKeepsTheBuffer) {
  poc::Writer w(1024);
  w.write(std::string(100, 'x'));
  const std::byte *before = w.bytes().data();
  w.clear();
  EXPECT_EQ(w.size(), 0u);
  w.write(std::string(200, 'y'));
  EXPECT_EQ(w.bytes().data(), before);
}

TEST(Writer, GrowsAcrossManySmallWrites) {
  poc::Writer w;
  for (int i = 0; i < 100000; ++i)
    w.write(i);
  poc::Reader r(w.bytes());
  for (int i = 0; i < 100000; ++i)
    ASSERT_EQ(r.read<int>(), i);
  r.expect_end();
}

TEST(Writer, MoveLeavesAnEmptyUsableWriter) {
  poc::Writer a;
  a.write(std::string("moved"));
  poc::Writer b(std::move(a));
  EXPECT_EQ(a.size(), 0u); // NOLINT(bugprone-use-after-move): documented state
  a.write(std::uint8_t{1});
  EXPECT_EQ(a.take(), bytes({1}));
  poc::Writer c;
  c = std::move(b);
  poc::Reader r(c.bytes());
  EXPECT_EQ(r.read<std::string>(), "moved");
}

TEST(Reader, TracksOffsetAndRemaining) {
  std::vector<std::byte> data = bytes({1, 2, 3, 4});
  poc::Reader r(data);
  EXPECT_EQ(r.remaining(), 4u);
  r.read<std::uint8_t>();
  EXPECT_EQ(r.offset(), 1u);
  std::span<const std::byte> view = r.read_view(2);
  EXPECT_EQ(view.data(), data.data() + 1);
  EXPECT_EQ(r.remaining(), 1u);
  EXPECT_THROW(r.expect_end(), poc::decode_error);
  EXPECT_THROW(r.read_view(2), poc::decode_error);
  r.read<std::uint8_t>();
  r.expect_end();
}

TEST(Reader, ReadSizeEnforcesMaximumAndRemainingBytes) {
  {
    std::vector<std::byte> r_data = bytes({3, 0, 0, 0});
    poc::Reader r(r_data);
    EXPECT_EQ(r.read_size(10), 3u);
  }
  {
    std::vector<std::byte> r_data = bytes({3, 0, 0, 0});
    poc::Reader r(r_data);
    EXPECT_THROW(r.read_size(2), poc::decode_error);
  }
  {
    std::vector<std::byte> r_data = bytes({4, 0, 0, 0});
    poc::Reader r(r_data);
    EXPECT_THROW(r.read_size(10), poc::decode_error);
  }
}

TEST(Reader, ReadCountUsesTheMinimumElementSize) {
  {
    std::vector<std::byte> r_data = bytes({2, 0, 0, 0, 0, 0, 0, 0, 0});
    poc::Reader r(r_data);
    EXPECT_EQ(r.read_count(4), 2u);
  }
  {
    std::vector<std::byte> r_data = bytes({3, 0, 0, 0, 0, 0, 0, 0, 0});
    poc::Reader r(r_data);
    EXPECT_THROW(r.read_count(4), poc::decode_error);
  }
  {
    std::vector<std::byte> r_data = bytes({100});
    poc::Reader r(r_data);
    EXPECT_EQ(r.read_count(0), 100u);
  }
}

TEST(Reader, CheckCountValidatesCountsFromElsewhere) {
  std::vector<std::byte> data = bytes({0, 0, 0, 0, 0, 0, 0, 0});
  poc::Reader r(data);
  r.check_count(2, 4);
  EXPECT_THROW(r.check_count(3, 4), poc::decode_error);
  EXPECT_THROW(r.check_count(std::uint64_t{1} << 40, 0), poc::decode_error);
  EXPECT_EQ(r.offset(), 0u); // nothing consumed
}

TEST(Limits, DefaultsCanBeReplaced) {
  poc::Limits saved = poc::default_limits();
  poc::Limits tight = saved;
  tight.max_elements = 1;
  poc::set_default_limits(tight);
  poc::Writer w;
  w.write(std::vector<std::string>{"a", "b"});
  poc::Reader r(w.bytes());
  poc::set_default_limits(saved);
  // The reader keeps the limits it was constructed with.
  EXPECT_EQ(r.limits().max_elements, 1u);
  EXPECT_THROW(r.read<std::vector<std::string>>(), poc::decode_error);
  poc::Reader relaxed(w.bytes());
  EXPECT_EQ(relaxed.read<std::vector<std::string>>().size(), 2u);
}

} // namespace
