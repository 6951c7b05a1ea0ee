//===- poc/serialize/reader.hpp - Bounds-checked decoding -----------------===//
//
// The Reader decodes a byte span produced by a Writer. Every read is bounds
// checked and every violation throws decode_error with the byte offset; the
// checks are one compare on the hot path and the throwing code is out of
// line.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/limits.hpp"
#include "poc/serialize/serializer.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace poc {

class BlockSource;

/// Reads encoded values from a byte span it does not own.
class Reader {
public:
  /// Decodes \p bytes; out-of-band blocks come from \p out_of_band (a message
  /// that refers to one without a source is malformed). Throws decode_error
  /// if \p bytes exceeds limits.max_message_bytes.
  explicit Reader(std::span<const std::byte> bytes, BlockSource *out_of_band = nullptr,
                  const Limits &limits = default_limits());

  /// A Reader does not own its bytes: reading from a temporary buffer would
  /// leave it dangling.
  Reader(std::vector<std::byte> &&, BlockSource * = nullptr,
         const Limits & = default_limits()) = delete;

  /// Copies the next \p n bytes to \p p.
  void read_bytes(void *p, std::size_t n) {
    if (n > remaining())
      fail_truncated(n);
    if (n != 0)
      std::memcpy(p, pos_, n);
    pos_ += n;
  }

  /// Returns the next \p n bytes without copying them.
  std::span<const std::byte> read_view(std::size_t n) {
    if (n > remaining())
      fail_truncated(n);
    std::span<const std::byte> out{pos_, n};
    pos_ += n;
    return out;
  }

  /// Reads one byte.
  std::uint8_t read_byte() {
    if (pos_ == end_)
      fail_truncated(1);
    return static_cast<std::uint8_t>(*pos_++);
  }

  /// Decodes a \p T into \p v with Serializer<T>.
  template <class T> void read(T &v) {
    static_assert(!std::is_const_v<T>, "poc::Reader::read into a const object");
#ifdef __POCXX__
    // poc++'s own parse, as in Writer::write.
    if constexpr (Serializable<T>)
      Serializer<T>::read(*this, v);
#else
    static_assert(Serializable<T>, "poc::Serializer<T> is not defined for this type: give the "
                                   "class poc_write/poc_read members, specialize "
                                   "poc::Serializer, or compile it with poc++");
    Serializer<T>::read(*this, v);
#endif
  }

  /// Decodes and returns a value-initialized \p T.
  template <class T> T read() {
    T v{};
    read(v);
    return v;
  }

  /// Decodes every argument in order.
  template <class... T> void read_all(T &...v) { (read(v), ...); }

  /// Reads an unsigned LEB128 varint (Writer::write_size) without bounding
  /// it; for tags and indices that are validated by the caller.
  std::uint64_t read_varint() {
    if (pos_ != end_ && static_cast<std::uint8_t>(*pos_) < 0x80)
      return static_cast<std::uint8_t>(*pos_++);
    return read_varint_slow();
  }

  /// Reads a varint count of elements that occupy at least one byte each:
  /// rejects counts above \p max_count or above the bytes that remain.
  std::uint64_t read_size(std::size_t max_count);

  /// Reads a container's element count. Rejects counts above
  /// Limits::max_elements and, if \p min_element_bytes > 0, counts whose
  /// elements cannot fit in the bytes that remain. Called before allocating.
  std::size_t read_count(std::size_t min_element_bytes) {
    std::uint64_t n = read_varint();
    check_count(n, min_element_bytes);
    return static_cast<std::size_t>(n);
  }

  /// The checks of read_count for a count that came from elsewhere (a field
  /// read earlier, a method's size parameter): call it before allocating
  /// \p n elements that are about to be read from this message.
  void check_count(std::uint64_t n, std::size_t min_element_bytes) const {
    if (n > limits_.max_elements || (min_element_bytes != 0 && n > remaining() / min_element_bytes))
      fail_count(n, min_element_bytes);
  }

  /// A block header as written by Writer::write_block.
  struct BlockHeader {
    std::size_t size;
    bool out_of_band;
  };

  /// First half of read_block: reads and validates the header of a block of
  /// at most \p max_bytes (an inline block must fit in the message, an
  /// out-of-band one within Limits::max_block_bytes and a BlockSource must
  /// exist), so the caller can size the destination before the payload.
  BlockHeader read_block_header(std::size_t max_bytes) {
    std::uint64_t h = read_varint();
    std::uint64_t size = h >> 1;
    if ((h & 1) == 0 && size <= remaining() && size <= max_bytes)
      return {static_cast<std::size_t>(size), false};
    return check_block_header(h, max_bytes);
  }

  /// Second half of read_block: stores the payload of \p h at \p dst (which
  /// holds h.size bytes), from the message or from the BlockSource.
  void read_block_payload(const BlockHeader &h, void *dst) {
    if (h.out_of_band) {
      receive_block(h.size, dst);
      return;
    }
    read_bytes(dst, h.size);
  }

  /// Reads a block written by Writer::write_block(p, n) into \p dst; the
  /// block must be exactly \p n bytes.
  void read_block(void *dst, std::size_t n);

  /// Bytes not yet read (out-of-band blocks not counted).
  std::size_t remaining() const noexcept { return static_cast<std::size_t>(end_ - pos_); }
  /// Bytes read so far.
  std::size_t offset() const noexcept { return static_cast<std::size_t>(pos_ - begin_); }
  /// Out-of-band blocks received so far.
  std::size_t blocks_received() const noexcept { return blocks_received_; }
  /// Throws decode_error if any bytes remain: a message must be consumed
  /// exactly, otherwise sender and receiver disagree about its contents.
  void expect_end() const;

  /// The limits this Reader enforces (copied at construction).
  const Limits &limits() const noexcept { return limits_; }

  /// Throws decode_error with \p what and the current byte offset.
  [[noreturn]] void fail(std::string_view what) const;

  /// Counts one level of nesting for Limits::max_depth while it lives.
  /// Serializers that can recurse (containers of classes, pointers, smart
  /// pointers: every recursive type passes through one) hold one while they
  /// read their elements, so a hostile message cannot overflow the stack.
  class NestingGuard {
  public:
    explicit NestingGuard(Reader &r) : r_(r) {
      if (r_.depth_ == r_.limits_.max_depth)
        r_.fail_depth();
      ++r_.depth_;
    }
    ~NestingGuard() { --r_.depth_; }
    NestingGuard(const NestingGuard &) = delete;
    NestingGuard &operator=(const NestingGuard &) = delete;

  private:
    Reader &r_;
  };

private:
  std::uint64_t read_varint_slow();
  BlockHeader check_block_header(std::uint64_t header, std::size_t max_bytes);
  void receive_block(std::size_t n, void *dst);
  [[noreturn]] void fail_truncated(std::size_t needed) const;
  [[noreturn]] void fail_count(std::uint64_t n, std::size_t min_element_bytes) const;
  [[noreturn]] void fail_depth() const;

  const std::byte *begin_;
  const std::byte *pos_;
  const std::byte *end_;
  BlockSource *source_;
  Limits limits_;
  std::size_t depth_ = 0;
  std::size_t blocks_received_ = 0;
};

} // namespace poc
