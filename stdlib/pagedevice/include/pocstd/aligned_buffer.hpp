//===- pocstd/aligned_buffer.hpp - Page-aligned owning byte buffer -*- C++ -*-===//
///
/// \file
/// AlignedBuffer: the storage behind every Page. Linux direct I/O (O_DIRECT)
/// transfers straight between the disk and user memory, and only when the
/// buffer address and the transfer length are multiples of the device's
/// logical block size; aligning every page buffer to kAlignment and rounding
/// its capacity up to a multiple of it lets a page be read from or written to a
/// file device without a bounce buffer.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>

namespace pocstd {

/// An owning, zero-initialised byte buffer whose start address and capacity
/// are multiples of kAlignment. Copies are deep; a moved-from buffer is empty.
class AlignedBuffer {
public:
  /// Alignment of data() and granularity of capacity(): 4 KiB covers the
  /// logical block size of every Linux block device O_DIRECT can meet.
  static constexpr std::size_t kAlignment = 4096;

  AlignedBuffer() = default;
  /// A buffer of \p size zero bytes; throws std::bad_alloc when out of memory.
  explicit AlignedBuffer(std::size_t size);
  /// A buffer of \p size bytes with unspecified contents, for a caller that
  /// overwrites them all (no zero-fill pass over memory).
  static AlignedBuffer forOverwrite(std::size_t size);
  AlignedBuffer(const AlignedBuffer &other);
  AlignedBuffer(AlignedBuffer &&other) noexcept;
  /// Deep copy; reuses this buffer's storage when it is large enough.
  AlignedBuffer &operator=(const AlignedBuffer &other);
  AlignedBuffer &operator=(AlignedBuffer &&other) noexcept;
  ~AlignedBuffer();

  /// Number of meaningful bytes.
  std::size_t size() const { return size_; }
  /// Allocated bytes, a multiple of kAlignment and at least size() rounded
  /// up to it. Direct I/O may transfer the bytes past size(); their contents
  /// are unspecified.
  std::size_t capacity() const { return capacity_; }
  std::byte *data() { return data_; }
  const std::byte *data() const { return data_; }

  /// Makes the buffer \p size bytes long, keeping the common prefix and
  /// zero-filling the rest; reallocates only when the capacity is too small,
  /// so shrinking and regrowing a buffer reuses its storage.
  void resize(std::size_t size);
  /// As resize, but leaves the contents unspecified: for a caller about to
  /// overwrite all \p size bytes (a read), which then pays no zero-fill.
  void resizeForOverwrite(std::size_t size);

  friend void swap(AlignedBuffer &a, AlignedBuffer &b) noexcept;

private:
  std::byte *data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

/// \p n rounded up to a multiple of AlignedBuffer::kAlignment.
constexpr std::size_t roundUpToAlignment(std::size_t n) {
  return (n + AlignedBuffer::kAlignment - 1) / AlignedBuffer::kAlignment *
         AlignedBuffer::kAlignment;
}

} // namespace pocstd
