#pragma once
/// \file
/// A ring of messages from one process to one other, in memory both map
/// (SharedRings' POSIX shared-memory object). One producer and one
/// consumer, no lock:
/// the producer publishes what it wrote by moving `tail` (release), the
/// consumer frees what it read by moving `head` (release). Each side caches
/// the other's index and reads the shared one only when its cache says the
/// ring is full or empty, so a message in flight costs two cache lines
/// moving between the cores, not four.
///
/// A message is an 8-byte record head (its size) and its bytes, padded to 8.
/// A record never wraps: a producer that would cross the end writes a
/// padding record up to it and starts again at 0. A producer that dies
/// while writing leaves `tail` where it was, so its consumer never reads a
/// half-written message.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace poc::detail {

class ShmRing {
public:
  /// The shared part of a ring: its two indices, on cache lines of their
  /// own, then the data.
  struct Header {
    alignas(64) std::atomic<std::uint64_t> tail; ///< bytes ever written (producer)
    alignas(64) std::atomic<std::uint64_t> head; ///< bytes ever read (consumer)
  };
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
                "a ring shared between processes needs lock-free atomics");

  /// The bytes a ring with `capacity` bytes of data needs (`capacity` a
  /// power of two, at least 64).
  static constexpr std::size_t footprint(std::size_t capacity) noexcept {
    return sizeof(Header) + capacity;
  }

  /// Sets up a ring in `memory` (footprint(capacity) bytes, 64-byte
  /// aligned): before the other side attaches to it.
  static void format(void *memory) noexcept {
    auto *h = static_cast<Header *>(memory);
    h->tail.store(0, std::memory_order_relaxed);
    h->head.store(0, std::memory_order_relaxed);
  }

  /// One side's view of the ring formatted in `memory`.
  ShmRing(void *memory, std::size_t capacity) noexcept
      : header_(static_cast<Header *>(memory)),
        data_(static_cast<std::byte *>(memory) + sizeof(Header)), mask_(capacity - 1),
        tail_(header_->tail.load(std::memory_order_acquire)),
        head_(header_->head.load(std::memory_order_acquire)), cached_head_(head_),
        cached_tail_(tail_) {}

  /// The largest message a ring carries: a quarter of it, so that a
  /// padding record never leaves too little room for the next message.
  std::size_t max_message() const noexcept { return (mask_ + 1) / 4 - kRecordHead; }

  /// Producer: appends `bytes` (at most max_message()); false, with
  /// nothing written, if the ring has no room for it now.
  bool try_push(std::span<const std::byte> bytes) noexcept {
    const std::uint64_t need = record_size(bytes.size());
    const std::uint64_t to_end = (mask_ + 1) - (tail_ & mask_);
    const std::uint64_t total = need + (to_end < need ? to_end : 0);
    if (tail_ + total - cached_head_ > mask_ + 1) {
      cached_head_ = header_->head.load(std::memory_order_acquire);
      if (tail_ + total - cached_head_ > mask_ + 1)
        return false;
    }
    if (to_end < need) {
      write_head(tail_, to_end - kRecordHead, kPadding);
      tail_ += to_end;
    }
    write_head(tail_, bytes.size(), 0);
    if (!bytes.empty())
      std::memcpy(data_ + (tail_ & mask_) + kRecordHead, bytes.data(), bytes.size());
    tail_ += need;
    header_->tail.store(tail_, std::memory_order_release);
    return true;
  }

  /// True if the consumer has read (and routed) every message published
  /// so far; any thread of the producer's side may ask (it reads the
  /// shared indices only).
  bool drained() const noexcept {
    return header_->head.load(std::memory_order_acquire) ==
           header_->tail.load(std::memory_order_acquire);
  }

  /// Producer: true if the consumer has read (and routed) every message
  /// pushed so far.
  bool all_read() noexcept {
    return cached_head_ == tail_ ||
           (cached_head_ = header_->head.load(std::memory_order_acquire)) == tail_;
  }

  /// Consumer: if a message is there, calls `take(std::span<const
  /// std::byte>)` with it (valid during the call) and frees it; true if
  /// there was one.
  template <class Take> bool try_pop(Take &&take) {
    if (head_ == cached_tail_) {
      cached_tail_ = header_->tail.load(std::memory_order_acquire);
      if (head_ == cached_tail_)
        return false;
    }
    std::uint64_t size = 0, flags = 0;
    read_head(head_, size, flags);
    if (flags == kPadding) {
      head_ += kRecordHead + size;
      read_head(head_, size, flags);
    }
    take(std::span<const std::byte>(data_ + (head_ & mask_) + kRecordHead, size));
    head_ += record_size(size);
    header_->head.store(head_, std::memory_order_release);
    return true;
  }

  /// Consumer: true if nothing waits to be read.
  bool empty() noexcept {
    return head_ == cached_tail_ &&
           head_ == (cached_tail_ = header_->tail.load(std::memory_order_acquire));
  }

private:
  static constexpr std::uint64_t kRecordHead = 8;
  static constexpr std::uint64_t kPadding = 1;

  static std::uint64_t record_size(std::size_t bytes) noexcept {
    return kRecordHead + ((bytes + 7) & ~std::uint64_t{7});
  }
  void write_head(std::uint64_t at, std::uint64_t size, std::uint64_t flags) noexcept {
    const std::uint64_t word = size | (flags << 32);
    std::memcpy(data_ + (at & mask_), &word, sizeof word);
  }
  void read_head(std::uint64_t at, std::uint64_t &size, std::uint64_t &flags) const noexcept {
    std::uint64_t word = 0;
    std::memcpy(&word, data_ + (at & mask_), sizeof word);
    size = word & 0xffffffffu;
    flags = word >> 32;
  }

  Header *header_;
  std::byte *data_;
  std::uint64_t mask_;
  /// This side's own index and its cache of the other side's.
  std::uint64_t tail_, head_;
  std::uint64_t cached_head_, cached_tail_;
};

} // namespace poc::detail
