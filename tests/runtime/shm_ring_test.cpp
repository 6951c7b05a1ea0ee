// The shared-memory ring (runtime/src/transport/shm_ring.hpp) under
// stress: every message arrives once, whole and in order, with messages of
// every size class, rings small enough to wrap and fill all the time, many
// producers (one ring each) beside one consumer on a machine with fewer
// cores, across processes, and with a producer killed while it writes.
#include "transport/shm_ring.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

namespace {

using poc::detail::ShmRing;

/// Memory for a ring, shared with children forked later.
class SharedMemory {
public:
  explicit SharedMemory(std::size_t bytes) : bytes_(bytes) {
    memory_ = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory_ == MAP_FAILED)
      throw std::runtime_error("mmap failed");
  }
  ~SharedMemory() { munmap(memory_, bytes_); }
  void *get() const { return memory_; }

private:
  std::size_t bytes_;
  void *memory_;
};

/// The size of message `seq` of a producer: cycles through every size
/// from 0 to `max`, so that records of each padding and both ends of the
/// range meet every wrap position.
std::size_t size_of(std::uint64_t seq, std::size_t max) { return (seq * 7) % (max + 1); }

/// Message `seq` of producer `producer`: its sequence number, then bytes
/// that depend on both (shorter messages keep what fits).
std::vector<std::byte> message(std::uint32_t producer, std::uint64_t seq, std::size_t max) {
  std::vector<std::byte> bytes(size_of(seq, max));
  const std::uint64_t stamp = (std::uint64_t{producer} << 48) | seq;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::byte>((stamp >> (8 * (i % 8))) ^ (i / 8));
  return bytes;
}

/// Checks that `got` is message `seq` of `producer`.
void expect_message(std::span<const std::byte> got, std::uint32_t producer, std::uint64_t seq,
                    std::size_t max) {
  const std::vector<std::byte> want = message(producer, seq, max);
  ASSERT_EQ(got.size(), want.size()) << "producer " << producer << " message " << seq;
  ASSERT_TRUE(std::equal(got.begin(), got.end(), want.begin()))
      << "producer " << producer << " message " << seq;
}

void produce(ShmRing ring, std::uint32_t producer, std::uint64_t count) {
  for (std::uint64_t seq = 0; seq < count; ++seq) {
    const auto bytes = message(producer, seq, ring.max_message());
    while (!ring.try_push(bytes))
      std::this_thread::yield();
  }
}

/// A child process that produces `count` messages as `producer` into the
/// ring in `memory`, then exits; its pid (negative if fork failed).
pid_t fork_producer(const SharedMemory &memory, std::size_t capacity, std::uint32_t producer,
                    std::uint64_t count) {
  const pid_t child = fork();
  if (child == 0) {
    produce(ShmRing(memory.get(), capacity), producer, count);
    _exit(0);
  }
  return child;
}

TEST(ShmRing, RejectsWhatDoesNotFitAndKeepsTheRest) {
  constexpr std::size_t kCapacity = 256;
  SharedMemory memory(ShmRing::footprint(kCapacity));
  ShmRing::format(memory.get());
  ShmRing producer(memory.get(), kCapacity), consumer(memory.get(), kCapacity);
  EXPECT_TRUE(consumer.empty());
  std::uint64_t pushed = 0;
  while (producer.try_push(message(0, pushed, producer.max_message())))
    ++pushed;
  EXPECT_GT(pushed, 0u);
  for (std::uint64_t seq = 0; seq < pushed; ++seq)
    EXPECT_TRUE(consumer.try_pop([&](std::span<const std::byte> got) {
      expect_message(got, 0, seq, consumer.max_message());
    }));
  EXPECT_FALSE(
      consumer.try_pop([](std::span<const std::byte>) { FAIL() << "a message too many"; }));
  EXPECT_TRUE(consumer.empty());
}

TEST(ShmRing, ManyProducersOneConsumerEverySize) {
  // More producer threads than cores, each with its own small ring, and one
  // consumer polling all rings in turn, as a rank polls its peers' rings.
  constexpr std::size_t kCapacity = 1024;
  constexpr std::uint32_t kProducers = 8;
  constexpr std::uint64_t kMessages = 20000;
  std::vector<std::unique_ptr<SharedMemory>> memories;
  std::vector<ShmRing> rings;
  for (std::uint32_t p = 0; p < kProducers; ++p) {
    memories.push_back(std::make_unique<SharedMemory>(ShmRing::footprint(kCapacity)));
    ShmRing::format(memories.back()->get());
    rings.emplace_back(memories.back()->get(), kCapacity);
  }
  std::vector<std::thread> producers;
  for (std::uint32_t p = 0; p < kProducers; ++p)
    producers.emplace_back(produce, ShmRing(memories[p]->get(), kCapacity), p, kMessages);
  std::vector<std::uint64_t> next(kProducers, 0);
  for (std::uint64_t left = kProducers * kMessages; left > 0;) {
    for (std::uint32_t p = 0; p < kProducers; ++p)
      while (rings[p].try_pop([&](std::span<const std::byte> got) {
        expect_message(got, p, next[p]++, rings[p].max_message());
      }))
        --left;
    std::this_thread::yield();
  }
  for (auto &t : producers)
    t.join();
  for (std::uint32_t p = 0; p < kProducers; ++p) {
    EXPECT_EQ(next[p], kMessages);
    EXPECT_TRUE(rings[p].empty());
  }
}

TEST(ShmRing, AcrossProcesses) {
  constexpr std::size_t kCapacity = 4096;
  constexpr std::uint64_t kMessages = 50000;
  SharedMemory memory(ShmRing::footprint(kCapacity));
  ShmRing::format(memory.get());
  ShmRing consumer(memory.get(), kCapacity);
  const pid_t child = fork_producer(memory, kCapacity, 1, kMessages);
  ASSERT_GE(child, 0);
  for (std::uint64_t seq = 0; seq < kMessages;)
    if (!consumer.try_pop([&](std::span<const std::byte> got) {
          expect_message(got, 1, seq++, consumer.max_message());
        }))
      std::this_thread::yield();
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_TRUE(consumer.empty());
}

TEST(ShmRing, AProducerKilledWhileWritingLeavesOnlyWholeMessages) {
  // The producer writes without end; it is killed at whatever point it
  // has reached, maybe in the middle of a message. What the consumer reads
  // then is every message published before, whole and in order, and then
  // nothing: reading never waits for the dead producer.
  constexpr std::size_t kCapacity = 4096;
  SharedMemory memory(ShmRing::footprint(kCapacity));
  ShmRing::format(memory.get());
  ShmRing consumer(memory.get(), kCapacity);
  const pid_t child = fork_producer(memory, kCapacity, 2, UINT64_MAX);
  ASSERT_GE(child, 0);
  std::uint64_t seq = 0;
  while (seq < 5000)
    if (!consumer.try_pop([&](std::span<const std::byte> got) {
          expect_message(got, 2, seq++, consumer.max_message());
        }))
      std::this_thread::yield();
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status));
  while (consumer.try_pop([&](std::span<const std::byte> got) {
    expect_message(got, 2, seq++, consumer.max_message());
  })) {
  }
  EXPECT_TRUE(consumer.empty());
}

} // namespace
