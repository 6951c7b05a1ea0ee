//===- aligned_buffer.cpp - Page-aligned owning byte buffer ---------------===//

#include "pocstd/aligned_buffer.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace pocstd {

namespace {

/// Storage of buffers a thread freed, kept for that thread's next
/// allocation of the same capacity. A remote page read makes a fresh page on
/// each side (the server's reply, the caller's copy-back), and glibc gives
/// blocks of this size back to the system when they are freed (munmap, or a
/// trimmed thread arena), so every allocation paid a page fault per 4 KiB
/// of it (measured: a 512 KiB page read from another rank took 9.7x a raw
/// ping-pong, with a fifth of the server's cycles in page faults). Bounded:
/// kSlots buffers of kSmallest to kLargest bytes, kMostBytes in all, per
/// thread. The slots are plain data, so a buffer freed by another
/// thread-local object while the thread ends finds them still there.
struct Recycled {
  std::byte *data;
  std::size_t capacity;
};
constexpr std::size_t kSlots = 4;
constexpr std::size_t kSmallest = 64 * 1024;
constexpr std::size_t kLargest = 4 * 1024 * 1024;
constexpr std::size_t kMostBytes = 8 * 1024 * 1024;
thread_local Recycled t_recycled[kSlots];
thread_local bool t_ending = false;

/// Frees the thread's recycled buffers when the thread ends.
struct RecycledRelease {
  ~RecycledRelease() {
    t_ending = true;
    for (Recycled &r : t_recycled)
      std::free(std::exchange(r.data, nullptr));
  }
};
thread_local RecycledRelease t_release;

/// A recycled buffer of exactly \p capacity bytes, or null.
std::byte *takeRecycled(std::size_t capacity) {
  for (Recycled &r : t_recycled)
    if (r.data && r.capacity == capacity)
      return std::exchange(r.data, nullptr);
  return nullptr;
}

/// Keeps \p data for reuse if it fits the bounds; false if the caller must
/// free it.
bool recycle(std::byte *data, std::size_t capacity) {
  if (capacity < kSmallest || capacity > kLargest || t_ending)
    return false;
  static_cast<void>(&t_release); // constructs it: it frees what is kept
  std::size_t kept = capacity;
  Recycled *free_slot = nullptr;
  for (Recycled &r : t_recycled) {
    if (r.data)
      kept += r.capacity;
    else if (!free_slot)
      free_slot = &r;
  }
  if (!free_slot || kept > kMostBytes)
    return false;
  *free_slot = {data, capacity};
  return true;
}

std::byte *allocate(std::size_t capacity) {
  if (capacity == 0)
    return nullptr;
  if (std::byte *recycled = takeRecycled(capacity))
    return recycled;
  void *p = std::aligned_alloc(AlignedBuffer::kAlignment, capacity);
  if (p == nullptr)
    throw std::bad_alloc();
  return static_cast<std::byte *>(p);
}
std::byte *allocateZeroed(std::size_t capacity) {
  std::byte *p = allocate(capacity);
  if (p != nullptr)
    std::memset(p, 0, capacity);
  return p;
}
} // namespace

AlignedBuffer AlignedBuffer::forOverwrite(std::size_t size) {
  AlignedBuffer b;
  b.capacity_ = roundUpToAlignment(size);
  b.data_ = allocate(b.capacity_);
  b.size_ = size;
  return b;
}

AlignedBuffer::AlignedBuffer(std::size_t size)
    : data_(allocateZeroed(roundUpToAlignment(size))), size_(size),
      capacity_(roundUpToAlignment(size)) {}

AlignedBuffer::AlignedBuffer(const AlignedBuffer &other)
    : data_(allocate(other.capacity_)), size_(other.size_), capacity_(other.capacity_) {
  if (size_ != 0)
    std::memcpy(data_, other.data_, size_);
}

AlignedBuffer::AlignedBuffer(AlignedBuffer &&other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

AlignedBuffer &AlignedBuffer::operator=(const AlignedBuffer &other) {
  if (this == &other)
    return *this;
  if (other.size_ <= capacity_) {
    if (other.size_ != 0)
      std::memcpy(data_, other.data_, other.size_);
    size_ = other.size_;
    return *this;
  }
  AlignedBuffer copy(other);
  swap(*this, copy);
  return *this;
}

AlignedBuffer &AlignedBuffer::operator=(AlignedBuffer &&other) noexcept {
  AlignedBuffer moved(std::move(other));
  swap(*this, moved);
  return *this;
}

AlignedBuffer::~AlignedBuffer() {
  if (data_ && !recycle(data_, capacity_))
    std::free(data_);
}

void AlignedBuffer::resize(std::size_t size) {
  if (size <= capacity_) {
    if (size > size_)
      std::memset(data_ + size_, 0, size - size_);
    size_ = size;
    return;
  }
  AlignedBuffer bigger(size);
  if (size_ != 0)
    std::memcpy(bigger.data_, data_, size_);
  swap(*this, bigger);
}

void AlignedBuffer::resizeForOverwrite(std::size_t size) {
  if (size <= capacity_) {
    size_ = size;
    return;
  }
  AlignedBuffer bigger = forOverwrite(size);
  swap(*this, bigger);
}

void swap(AlignedBuffer &a, AlignedBuffer &b) noexcept {
  std::swap(a.data_, b.data_);
  std::swap(a.size_, b.size_);
  std::swap(a.capacity_, b.capacity_);
}

} // namespace pocstd
