//===- aligned_buffer.cpp - Page-aligned owning byte buffer ---------------===//

#include "pocstd/aligned_buffer.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace pocstd {

namespace {
std::byte *allocate(std::size_t capacity) {
  if (capacity == 0)
    return nullptr;
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

AlignedBuffer::~AlignedBuffer() { std::free(data_); }

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
