// The rings between ranks of a node (runtime/src/transport/shared_rings.hpp)
// without MPI: one segment mapped twice in this process stands for two
// ranks' mappings. Every message arrives once, whole and in order, when the
// ring fills and messages wait in the sender's queue, with several sender
// threads at once, on a rank's ring to itself, and when messages that may
// wait travel in batches, mixed with messages that may not.
#include "transport/batch.hpp"
#include "transport/shared_rings.hpp"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

using poc::detail::BatchFrame;
using poc::detail::Envelope;
using poc::detail::Kind;
using poc::detail::Progress;
using poc::detail::SharedRings;
using poc::detail::ShmRing;

constexpr std::size_t kCapacity = 128 * 1024;

/// A node of `ranks` ranks, all of them this process's: one shared-memory
/// object mapped once per rank, as each rank's process would map it.
class Node {
public:
  explicit Node(int ranks) : ranks_(ranks) {
    const int fd = memfd_create("shared-rings-test", 0);
    if (fd < 0 || ftruncate(fd, static_cast<off_t>(bytes())) != 0)
      throw std::runtime_error("memfd");
    std::vector<int> node_index;
    for (int r = 0; r < ranks; ++r)
      node_index.push_back(r);
    for (int r = 0; r < ranks; ++r) {
      void *m = mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (m == MAP_FAILED)
        throw std::runtime_error("mmap");
      progress_.push_back(std::make_unique<Progress>());
      rings_.push_back(
          std::make_unique<SharedRings>(*progress_.back(), r, node_index, m, bytes(), kCapacity));
    }
    close(fd);
  }
  SharedRings &rank(int r) { return *rings_[static_cast<std::size_t>(r)]; }
  /// Sends `bytes` from rank `from` to rank `to`, as a thread that does
  /// not hold `from`'s host mutex.
  void send(int from, int to, std::span<const std::byte> bytes, bool may_wait = false) {
    poc::detail::LazyHostLock lock(*progress_[static_cast<std::size_t>(from)]);
    rank(from).send(to, bytes, lock, may_wait);
  }

private:
  std::size_t bytes() const {
    return ShmRing::footprint(kCapacity) * static_cast<std::size_t>(ranks_ * ranks_);
  }
  int ranks_;
  std::vector<std::unique_ptr<Progress>> progress_;
  std::vector<std::unique_ptr<SharedRings>> rings_;
};

/// Message `seq` of sender `sender`: its stamp, then bytes that depend on
/// both; sizes cycle from 8 bytes to the largest a ring carries.
std::vector<std::byte> message(std::uint32_t sender, std::uint32_t seq, std::size_t max) {
  std::vector<std::byte> bytes(8 + (std::size_t{seq} * 997) % (max - 7));
  const std::uint64_t stamp = (std::uint64_t{sender} << 32) | seq;
  std::memcpy(bytes.data(), &stamp, sizeof stamp);
  for (std::size_t i = 8; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::byte>(stamp * 31 + i);
  return bytes;
}

/// True if `bytes` is a batch's frame (a test message starts with its
/// stamp, whose low half, a sequence number, is never the magic number).
bool is_batch(std::span<const std::byte> bytes) {
  Envelope e;
  if (bytes.size() < sizeof e)
    return false;
  std::memcpy(&e, bytes.data(), sizeof e);
  return e.magic == Envelope::kMagic && e.kind == Kind::batch;
}

/// Receives on `receiver` until `total` messages have come, while
/// `senders` move their queued messages as their pollers would; checks
/// that each sender's come in order and intact, also those in batches
/// (sent with message(), its sizes up to `max`; 0: the ring's largest).
/// Returns the number of ring messages they came in.
std::size_t receive_all(SharedRings &receiver, std::vector<SharedRings *> senders,
                        std::size_t total, std::size_t streams, std::size_t max = 0) {
  if (max == 0)
    max = receiver.max_message();
  std::vector<std::uint32_t> next(streams, 0);
  std::size_t got = 0, records = 0;
  auto check = [&](std::span<const std::byte> bytes) {
    ASSERT_GE(bytes.size(), 8u);
    std::uint64_t stamp = 0;
    std::memcpy(&stamp, bytes.data(), sizeof stamp);
    const auto sender = static_cast<std::uint32_t>(stamp >> 32);
    const auto seq = static_cast<std::uint32_t>(stamp);
    ASSERT_LT(sender, streams);
    ASSERT_EQ(seq, next[sender]) << "stream " << sender;
    const auto want = message(sender, seq, max);
    ASSERT_EQ(bytes.size(), want.size());
    ASSERT_EQ(0, std::memcmp(bytes.data(), want.data(), want.size()));
    ++next[sender];
    ++got;
  };
  while (got < total && !::testing::Test::HasFailure()) {
    receiver.receive([&](int, std::span<const std::byte> bytes) {
      ++records;
      if (is_batch(bytes))
        BatchFrame::unpack(bytes.subspan(sizeof(Envelope)), check);
      else
        check(bytes);
    });
    for (SharedRings *s : senders)
      if (s->queued())
        s->move_queued();
  }
  return records;
}

TEST(SharedRings, AFullRingQueuesInOrder) {
  Node node(2);
  SharedRings &a = node.rank(0), &b = node.rank(1);
  constexpr std::uint32_t kMessages = 2000;
  // All sent before anything is read: the ring fills, the rest waits.
  for (std::uint32_t seq = 0; seq < kMessages; ++seq)
    node.send(0, 1, message(0, seq, a.max_message()));
  EXPECT_TRUE(a.queued());
  receive_all(b, {&a}, kMessages, 1);
  EXPECT_FALSE(a.queued());
}

/// Four threads of ranks 0 and 1 send to rank 2, every size class, while
/// its receiver reads and the senders' pollers move what waits; message
/// `seq` of a thread may wait in a batch if `may_wait(seq)`.
void send_from_threads_of_two_ranks(bool (*may_wait)(std::uint32_t seq)) {
  Node node(3);
  constexpr std::uint32_t kThreads = 4, kMessages = 3000;
  SharedRings &receiver = node.rank(2);
  std::vector<std::thread> threads;
  for (std::uint32_t t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      const int from = static_cast<int>(t % 2);
      for (std::uint32_t seq = 0; seq < kMessages; ++seq)
        node.send(from, 2, message(t, seq, receiver.max_message()), may_wait(seq));
    });
  receive_all(receiver, {&node.rank(0), &node.rank(1)}, kThreads * kMessages, kThreads);
  for (auto &t : threads)
    t.join();
  EXPECT_FALSE(node.rank(0).queued());
  EXPECT_FALSE(node.rank(1).queued());
}

TEST(SharedRings, SenderThreadsAndAMovingPollerAtOnce) {
  send_from_threads_of_two_ranks([](std::uint32_t) { return false; });
}

TEST(SharedRings, ARankReachesItself) {
  Node node(2);
  SharedRings &a = node.rank(0);
  EXPECT_TRUE(a.reaches(0));
  EXPECT_TRUE(a.reaches(1));
  EXPECT_FALSE(a.reaches(2));
  EXPECT_TRUE(a.cover_world());
  for (std::uint32_t seq = 0; seq < 100; ++seq)
    node.send(0, 0, message(0, seq, a.max_message()));
  receive_all(a, {&a}, 100, 1);
}

TEST(SharedRings, MessagesThatMayWaitTravelInBatches) {
  Node node(2);
  SharedRings &a = node.rank(0), &b = node.rank(1);
  // The first goes at once; the rest find it unread and wait, batched,
  // until a message that may not wait takes them along before itself.
  constexpr std::uint32_t kMessages = 300;
  const std::size_t small = 64;
  for (std::uint32_t seq = 0; seq + 1 < kMessages; ++seq)
    node.send(0, 1, message(0, seq, small), true);
  EXPECT_TRUE(a.queued());
  node.send(0, 1, message(0, kMessages - 1, small), false);
  EXPECT_FALSE(a.queued());
  const std::size_t records = receive_all(b, {&a}, kMessages, 1, small);
  // Each batch holds up to BatchFrame::kMaxBytes: a handful of them.
  EXPECT_LT(records, std::size_t{kMessages / 50});
}

TEST(SharedRings, BatchesGoOnceTheReceiverHasReadTheRest) {
  Node node(2);
  SharedRings &a = node.rank(0), &b = node.rank(1);
  node.send(0, 1, message(0, 0, 64), true);
  node.send(0, 1, message(0, 1, 64), true);
  node.send(0, 1, message(0, 2, 64), true);
  EXPECT_TRUE(a.queued());
  // Unread: the poller keeps the batch.
  a.move_queued();
  EXPECT_TRUE(a.queued());
  std::size_t records = 0;
  EXPECT_TRUE(b.receive([&](int, std::span<const std::byte>) { ++records; }));
  // Read: the poller sends it, as one message.
  a.move_queued();
  EXPECT_FALSE(a.queued());
  EXPECT_TRUE(b.receive([&](int, std::span<const std::byte> bytes) {
    ++records;
    std::size_t inside = 0;
    EXPECT_TRUE(is_batch(bytes));
    BatchFrame::unpack(bytes.subspan(sizeof(Envelope)), [&](auto) { ++inside; });
    EXPECT_EQ(inside, 2u);
  }));
  EXPECT_EQ(records, 2u);
}

TEST(SharedRings, ThreadsMixingMessagesThatMayWaitAndOthers) {
  send_from_threads_of_two_ranks([](std::uint32_t seq) { return seq % 7 != 0; });
}

TEST(SharedRings, TooLargeAMessageIsRefused) {
  Node node(2);
  SharedRings &a = node.rank(0);
  std::vector<std::byte> big(a.max_message() + 1);
  EXPECT_THROW(node.send(0, 1, big), std::logic_error);
  EXPECT_FALSE(a.queued());
}

} // namespace
