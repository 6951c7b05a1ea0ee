//===- out_of_band_test.cpp - Large blocks bypass the message buffer ------===//
#include "round_trip.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using poc::test::round_trip;

/// A BlockSource that serves the writer's blocks and remembers where the
/// reader asked it to put each one.
class RecordingSource final : public poc::BlockSource {
public:
  explicit RecordingSource(const std::vector<poc::Writer::Block> &blocks) : blocks_(blocks) {}
  void receive(void *dst, std::size_t n) override {
    ASSERT_LT(next_, blocks_.size());
    ASSERT_EQ(blocks_[next_].size, n);
    std::memcpy(dst, blocks_[next_].data, n);
    destinations.push_back(dst);
    ++next_;
  }
  std::vector<void *> destinations;

private:
  const std::vector<poc::Writer::Block> &blocks_;
  std::size_t next_ = 0;
};

TEST(OutOfBand, LargeVectorIsNeitherCopiedBySenderNorStagedByReceiver) {
  std::vector<double> big(32 * 1024 * 1024 / sizeof(double));
  std::iota(big.begin(), big.end(), 0.0);
  poc::Writer w;
  w.write(big);
  // The message holds only the block header; the block is the vector itself.
  EXPECT_LE(w.size(), 8u);
  ASSERT_EQ(w.out_of_band().size(), 1u);
  EXPECT_EQ(w.out_of_band()[0].data, static_cast<const void *>(big.data()));
  EXPECT_EQ(w.out_of_band()[0].size, big.size() * sizeof(double));

  RecordingSource source(w.out_of_band());
  poc::Reader r(w.bytes(), &source);
  std::vector<double> received;
  r.read(received);
  r.expect_end();
  ASSERT_EQ(source.destinations.size(), 1u);
  EXPECT_EQ(source.destinations[0], static_cast<void *>(received.data()));
  EXPECT_EQ(r.blocks_received(), 1u);
  EXPECT_EQ(received, big);
}

TEST(OutOfBand, ThresholdIsSixtyFourKibibytes) {
  std::vector<char> below(poc::kOutOfBandThreshold - 1, 'a');
  std::vector<char> at(poc::kOutOfBandThreshold, 'b');
  poc::Writer w;
  w.write(below);
  EXPECT_TRUE(w.out_of_band().empty());
  EXPECT_GT(w.size(), below.size());
  w.write(at);
  ASSERT_EQ(w.out_of_band().size(), 1u);
  EXPECT_EQ(round_trip(below), below);
  EXPECT_EQ(round_trip(at), at);
}

TEST(OutOfBand, BlocksArriveInWriteOrder) {
  std::vector<std::vector<int>> parts{std::vector<int>(40000, 1), std::vector<int>(3, 2),
                                      std::vector<int>(50000, 3)};
  std::string text(70000, 't');
  std::array<std::uint8_t, 100000> fixed{};
  fixed[99999] = 42;
  poc::Writer w;
  w.write_all(parts, text, fixed);
  EXPECT_EQ(w.out_of_band().size(), 4u);
  poc::MemoryBlockSource source(w.out_of_band());
  poc::Reader r(w.bytes(), &source);
  std::vector<std::vector<int>> parts_in;
  std::string text_in;
  auto fixed_in = std::make_unique<std::array<std::uint8_t, 100000>>();
  r.read_all(parts_in, text_in, *fixed_in);
  r.expect_end();
  EXPECT_EQ(parts_in, parts);
  EXPECT_EQ(text_in, text);
  EXPECT_EQ((*fixed_in)[99999], 42);
  EXPECT_EQ(source.remaining(), 0u);
}

TEST(OutOfBand, ThresholdCanBeRaisedToKeepEverythingInline) {
  std::vector<double> big(100000, 1.5);
  poc::Writer w;
  w.set_out_of_band_threshold(std::numeric_limits<std::size_t>::max());
  w.write(big);
  EXPECT_TRUE(w.out_of_band().empty());
  poc::Reader r(w.bytes()); // no BlockSource needed
  EXPECT_EQ(r.read<std::vector<double>>(), big);
}

TEST(OutOfBand, TakeKeepsTheBlockListUntilClear) {
  std::vector<double> big(20000, 2.0);
  poc::Writer w;
  w.write(big);
  std::vector<std::byte> message = w.take();
  EXPECT_EQ(w.size(), 0u);
  ASSERT_EQ(w.out_of_band().size(), 1u);
  poc::MemoryBlockSource source(w.out_of_band());
  poc::Reader r(message, &source);
  EXPECT_EQ(r.read<std::vector<double>>(), big);
  w.clear();
  EXPECT_TRUE(w.out_of_band().empty());
}

TEST(OutOfBand, MissingSourceIsAnError) {
  std::vector<double> big(20000, 2.0);
  poc::Writer w;
  w.write(big);
  poc::Reader r(w.bytes());
  std::vector<double> out;
  EXPECT_THROW(r.read(out), poc::decode_error);
  EXPECT_TRUE(out.empty()); // rejected before allocating
}

TEST(OutOfBand, MissingOrMismatchedBlockIsAnError) {
  std::vector<double> big(20000, 2.0);
  poc::Writer w;
  w.write(big);
  poc::MemoryBlockSource none(std::span<const poc::Writer::Block>{});
  poc::Reader r1(w.bytes(), &none);
  EXPECT_THROW(r1.read<std::vector<double>>(), poc::decode_error);

  std::vector<double> other(100, 1.0);
  poc::Writer::Block wrong{other.data(), other.size() * sizeof(double)};
  poc::MemoryBlockSource mismatched(std::span<const poc::Writer::Block>(&wrong, 1));
  poc::Reader r2(w.bytes(), &mismatched);
  std::vector<double> out;
  EXPECT_THROW(r2.read(out), poc::decode_error);
  // The source announced the real size, so nothing was allocated.
  EXPECT_EQ(out.capacity(), 0u);
}

TEST(OutOfBand, BlockAboveLimitIsRejectedBeforeAllocating) {
  // A hand-made header claiming a 1 TiB out-of-band block of doubles.
  poc::Writer w;
  w.write_size((std::uint64_t{1} << 40) << 1 | 1);
  poc::MemoryBlockSource none(std::span<const poc::Writer::Block>{});
  poc::Reader r(w.bytes(), &none);
  std::vector<double> out;
  EXPECT_THROW(r.read(out), poc::decode_error);
  EXPECT_EQ(out.capacity(), 0u);

  poc::Limits tight;
  tight.max_block_bytes = 1024;
  std::vector<double> big(20000, 2.0);
  poc::Writer w2;
  w2.write(big);
  poc::MemoryBlockSource source(w2.out_of_band());
  poc::Reader r2(w2.bytes(), &source, tight);
  EXPECT_THROW(r2.read(out), poc::decode_error);
  EXPECT_EQ(out.capacity(), 0u);
}

TEST(OutOfBand, ReadBlockChecksTheLength) {
  double data[4] = {1, 2, 3, 4};
  poc::Writer w;
  w.write_block(data, sizeof(data));
  {
    poc::Reader r(w.bytes());
    double out[4];
    r.read_block(out, sizeof(out));
    r.expect_end();
    EXPECT_EQ(out[3], 4.0);
  }
  {
    poc::Reader r(w.bytes());
    double out[3];
    EXPECT_THROW(r.read_block(out, sizeof(out)), poc::decode_error);
  }
}

TEST(OutOfBand, KeptBlocksRecordTheirOwnerOnce) {
  auto owner = std::make_shared<const std::vector<double>>(20000, 1.5);
  std::vector<double> other(20000, 2.5);
  poc::Writer w;
  w.write_block(owner->data(), owner->size() * sizeof(double), owner);
  w.write_block(other.data(), other.size() * sizeof(double));
  w.write_block(owner->data(), 16, owner); // inline: nothing to keep
  w.write_kept(owner);                     // the same owner again, kept
  ASSERT_EQ(w.out_of_band().size(), 3u);
  EXPECT_TRUE(w.out_of_band()[0].kept);
  EXPECT_FALSE(w.out_of_band()[1].kept);
  EXPECT_TRUE(w.out_of_band()[2].kept);
  EXPECT_EQ(w.out_of_band()[2].data, owner->data());
  // Recorded at each change of owner: the unkept block between does not
  // count as one.
  ASSERT_EQ(w.keepers().size(), 1u);
  EXPECT_EQ(w.keepers()[0], owner);
  // A kept block is no different on the wire.
  RecordingSource source(w.out_of_band());
  poc::Reader r(w.bytes(), &source);
  std::vector<double> a(20000), b(20000), c(2), d;
  r.read_block(a.data(), a.size() * sizeof(double));
  r.read_block(b.data(), b.size() * sizeof(double));
  r.read_block(c.data(), c.size() * sizeof(double));
  r.read(d);
  r.expect_end();
  EXPECT_EQ(a, *owner);
  EXPECT_EQ(b, other);
  EXPECT_EQ(d, *owner);
  const std::vector<std::shared_ptr<const void>> keepers = w.take_keepers();
  EXPECT_EQ(keepers.size(), 1u);
  EXPECT_TRUE(w.keepers().empty());
}

TEST(OutOfBand, WriteKeptDoesNotKeepWhatFollows) {
  auto owner = std::make_shared<const std::vector<char>>(100000, 'k');
  std::vector<char> after(100000, 'a');
  poc::Writer w;
  w.write_kept(owner);
  w.write(after);
  ASSERT_EQ(w.out_of_band().size(), 2u);
  EXPECT_TRUE(w.out_of_band()[0].kept);
  EXPECT_FALSE(w.out_of_band()[1].kept);
}

TEST(OutOfBand, TruncateForgetsLaterBytesAndBlocks) {
  std::vector<char> big(100000, 'b');
  poc::Writer w;
  w.write(std::uint32_t{7});
  const std::size_t size = w.size(), blocks = w.out_of_band().size();
  w.write(big);
  w.write(std::string("later"));
  w.truncate(size, blocks);
  EXPECT_EQ(w.size(), size);
  EXPECT_TRUE(w.out_of_band().empty());
  w.write(std::uint32_t{8});
  poc::Reader r(w.bytes());
  EXPECT_EQ(r.read<std::uint32_t>(), 7u);
  EXPECT_EQ(r.read<std::uint32_t>(), 8u);
  r.expect_end();
  EXPECT_THROW(w.truncate(w.size() + 1, 0), std::logic_error);
}

TEST(OutOfBand, MovedWriterKeepsItsKeepers) {
  auto owner = std::make_shared<const std::vector<char>>(100000, 'm');
  poc::Writer w;
  w.write_kept(owner);
  poc::Writer moved(std::move(w));
  EXPECT_EQ(moved.keepers().size(), 1u);
  poc::Writer assigned;
  assigned = std::move(moved);
  EXPECT_EQ(assigned.keepers().size(), 1u);
  assigned.clear();
  EXPECT_TRUE(assigned.keepers().empty());
  EXPECT_EQ(owner.use_count(), 1);
}

} // namespace
