//===- poc/serialize/writer.hpp - Encoding into a byte buffer -------------===//
//
// The Writer appends encoded values to a buffer it owns. The hot path (a
// scalar, a short string) is an inlined capacity check and a memcpy; the
// buffer grows geometrically and keeps its capacity across clear(), so a
// Writer reused for many messages stops allocating.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/serializer.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace poc {

/// Blocks of at least this many bytes travel out of band by default.
inline constexpr std::size_t kOutOfBandThreshold = 64 * 1024;

/// Appends encoded values to an owned byte buffer. Not thread-safe; one
/// Writer per message under construction.
class Writer {
public:
  /// A block of caller memory that travels as a separate transport message.
  struct Block {
    const void *data;
    std::size_t size;
    /// True when one of keepers() keeps the memory alive, so that the
    /// transport may keep that owner until the block is sent instead of
    /// copying the block or waiting for the send.
    bool kept = false;
  };

  Writer() = default;
  /// A Writer whose buffer starts with \p initial_capacity bytes.
  explicit Writer(std::size_t initial_capacity);
  Writer(Writer &&other) noexcept;
  Writer &operator=(Writer &&other) noexcept;
  Writer(const Writer &) = delete;
  Writer &operator=(const Writer &) = delete;
  ~Writer() = default;

  /// Appends \p n raw bytes.
  void write_bytes(const void *p, std::size_t n) {
    if (n == 0)
      return; // memcpy from a null pointer is undefined even for 0 bytes
    if (buf_.size() - size_ < n)
      grow(n);
    std::memcpy(buf_.data() + size_, p, n);
    size_ += n;
  }

  /// Appends one byte (tags, bools).
  void write_byte(std::uint8_t b) {
    if (buf_.size() == size_)
      grow(1);
    buf_[size_++] = static_cast<std::byte>(b);
  }

  /// Encodes \p v with Serializer<T>.
  template <class T> void write(const T &v) {
    using U = std::remove_cvref_t<T>;
#ifdef __POCXX__
    // poc++'s own parse: it generates the Serializers of the user classes
    // encoded here afterwards (docs/compiler.md section 6).
    if constexpr (Serializable<U>)
      Serializer<U>::write(*this, v);
#else
    static_assert(Serializable<U>, "poc::Serializer<T> is not defined for this type: give the "
                                   "class poc_write/poc_read members, specialize "
                                   "poc::Serializer, or compile it with poc++");
    Serializer<U>::write(*this, v);
#endif
  }

  /// Encodes every argument in order.
  template <class... T> void write_all(const T &...v) { (write(v), ...); }

  /// Appends a length or count as an unsigned LEB128 varint (1 byte below
  /// 128, at most 10 bytes).
  void write_size(std::uint64_t n) {
    if (n < 0x80) {
      write_byte(static_cast<std::uint8_t>(n));
      return;
    }
    write_varint(n);
  }

  /// Large contiguous trivially copyable data. Writes a header (the byte
  /// length and whether the block is out of band), then the bytes inline if
  /// \p n is below the out-of-band threshold. At or above it only the header
  /// is written and {p, n} is recorded in out_of_band(), so the transport can
  /// send the block straight from the caller's memory: that memory must stay
  /// unchanged until the message has been sent.
  void write_block(const void *p, std::size_t n) {
    if (n < oob_threshold_) {
      write_size(std::uint64_t{n} << 1);
      write_bytes(p, n);
      return;
    }
    write_size((std::uint64_t{n} << 1) | 1);
    blocks_.push_back({p, n, owner_ != nullptr});
    if (owner_ && (keepers_.empty() || keepers_.back() != owner_))
      keepers_.push_back(owner_);
  }

  /// write_block of memory that \p owner keeps alive: an out-of-band block
  /// is recorded as kept (Block::kept) and \p owner joins keepers(), so the
  /// memory may outlive its last other holder until the block is sent
  /// (a page lent by the device that stores it, say).
  void write_block(const void *p, std::size_t n, std::shared_ptr<const void> owner) {
    OwnerScope scope(owner_, std::move(owner));
    write_block(p, n);
  }

  /// Encodes \p *v, which keeps its out-of-band blocks alive: each is
  /// recorded as kept by \p v (as write_block with an owner). What a
  /// started call does with an argument it was given to move.
  template <class T> void write_kept(const std::shared_ptr<const T> &v) {
    OwnerScope scope(owner_, v);
    write(*v);
  }

  /// Forgets what was encoded after the first \p size bytes and \p blocks
  /// out-of-band blocks: an encoding that is to be done again another way.
  /// Keepers stay (they only keep their memory a little longer).
  void truncate(std::size_t size, std::size_t blocks);

  /// Blocks of at least \p n bytes go out of band (default
  /// kOutOfBandThreshold). SIZE_MAX keeps everything inline, e.g. for a file.
  void set_out_of_band_threshold(std::size_t n) noexcept { oob_threshold_ = n; }

  /// The message encoded so far (excluding out-of-band blocks).
  std::span<const std::byte> bytes() const noexcept { return {buf_.data(), size_}; }
  /// Number of message bytes encoded so far.
  std::size_t size() const noexcept { return size_; }
  /// Moves the message bytes out and leaves the buffer empty. The
  /// out-of-band block list stays until clear(), because the transport
  /// sends those blocks after the message.
  std::vector<std::byte> take();
  /// Forgets the message and the blocks, keeping the buffer's capacity.
  void clear() noexcept {
    size_ = 0;
    blocks_.clear();
    keepers_.clear();
  }
  /// Makes room for \p n more bytes without reallocating.
  void reserve(std::size_t n) {
    if (buf_.size() - size_ < n)
      grow(n);
  }

  /// Blocks recorded by write_block, in the order the Reader consumes them.
  const std::vector<Block> &out_of_band() const noexcept { return blocks_; }
  /// The owners of the kept blocks (Block::kept), each once.
  const std::vector<std::shared_ptr<const void>> &keepers() const noexcept { return keepers_; }
  /// Moves the keepers out, for a transport that keeps them until the kept
  /// blocks are sent.
  std::vector<std::shared_ptr<const void>> take_keepers() noexcept { return std::move(keepers_); }

private:
  /// Makes `owner` the owner of the blocks written while it lives, and
  /// the one before it again afterwards, also if the writing throws.
  class OwnerScope {
  public:
    OwnerScope(std::shared_ptr<const void> &current, std::shared_ptr<const void> owner)
        : current_(current), outer_(std::exchange(current, std::move(owner))) {}
    ~OwnerScope() { current_ = std::move(outer_); }
    OwnerScope(const OwnerScope &) = delete;
    OwnerScope &operator=(const OwnerScope &) = delete;

  private:
    std::shared_ptr<const void> &current_;
    std::shared_ptr<const void> outer_;
  };

  void grow(std::size_t n);
  void write_varint(std::uint64_t n);

  // buf_.size() is the capacity in use; bytes [0, size_) are the message.
  // Growing resizes (zero-fills) once, so writes themselves never
  // value-initialize.
  std::vector<std::byte> buf_;
  std::size_t size_ = 0;
  std::size_t oob_threshold_ = kOutOfBandThreshold;
  std::vector<Block> blocks_;
  std::vector<std::shared_ptr<const void>> keepers_;
  /// The owner of the blocks being written (write_kept), or null.
  std::shared_ptr<const void> owner_;
};

} // namespace poc
