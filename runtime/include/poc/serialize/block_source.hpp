//===- poc/serialize/block_source.hpp - Where out-of-band blocks come from -===//
//
// A Writer records large blocks instead of copying them into the message;
// the transport sends them as separate messages. On the receiving side the
// Reader asks a BlockSource for each block, in order, with the destination
// already allocated, so the transport can receive straight into it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/writer.hpp"

#include <cstddef>
#include <optional>
#include <span>

namespace poc {

/// Supplies the out-of-band blocks of one message, in the order they were
/// written.
class BlockSource {
public:
  virtual ~BlockSource() = default;
  /// Stores the next block, which must be exactly \p n bytes, at \p dst.
  /// Throws decode_error if there is no next block or its size differs.
  virtual void receive(void *dst, std::size_t n) = 0;

  /// The size of the next block, if the source knows it before receiving
  /// (e.g. announced in the message header, or from probing). The Reader
  /// then rejects a block header that disagrees before it allocates the
  /// destination, so a corrupted length cannot cause a huge allocation. The
  /// default, std::nullopt, leaves only Limits::max_block_bytes as a bound.
  virtual std::optional<std::size_t> next_block_size() const noexcept { return std::nullopt; }
};

/// Serves blocks from memory, e.g. Writer::out_of_band() of a message
/// delivered within one process, or a test.
class MemoryBlockSource final : public BlockSource {
public:
  explicit MemoryBlockSource(std::span<const Writer::Block> blocks) noexcept : blocks_(blocks) {}
  void receive(void *dst, std::size_t n) override;
  std::optional<std::size_t> next_block_size() const noexcept override {
    if (next_ == blocks_.size())
      return std::nullopt;
    return blocks_[next_].size;
  }
  /// Blocks not yet received.
  std::size_t remaining() const noexcept { return blocks_.size() - next_; }

private:
  std::span<const Writer::Block> blocks_;
  std::size_t next_ = 0;
};

} // namespace poc
