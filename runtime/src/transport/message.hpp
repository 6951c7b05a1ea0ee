#pragma once
/// \file
/// A received message: its envelope, the head of its kind and its body, and
/// its out-of-band blocks, which it pulls from its link straight into their
/// final destination.

#include "wire.hpp"

#include <poc/serialize.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

namespace poc::detail {

class Blocks;
struct Link;

/// A received message. Owns its bytes. Blocks a decoder did not consume
/// (because decoding failed) are drained when the message is destroyed, so
/// the sender's sends always complete.
class Message final : public BlockSource {
public:
  /// Validates the envelope and the head's size: throws protocol_error for
  /// a message shorter than both, bad magic or an unknown kind. `blocks`
  /// and `link`: where its out-of-band blocks arrive (null for messages
  /// made locally or relayed, which have none).
  /// `link` is copied only if the message has blocks: a shared_ptr copy
  /// is two atomic updates on every message's path.
  Message(int source, std::vector<std::byte> bytes, Blocks *blocks = nullptr,
          const std::shared_ptr<Link> &link = nullptr);
  /// A message whose `bytes` lie in `batch`, a buffer it shares with the
  /// other messages of one batch (one allocation for all their bytes).
  Message(int source, std::shared_ptr<const std::vector<std::byte>> batch,
          std::span<const std::byte> bytes, Blocks *blocks, const std::shared_ptr<Link> &link);
  ~Message() override;
  Message(const Message &) = delete;
  Message &operator=(const Message &) = delete;

  Kind kind() const noexcept { return envelope_.kind; }
  const Envelope &envelope() const noexcept { return envelope_; }

  /// The head of this message's kind; `Head` must belong to it (a
  /// logic_error otherwise: the router dispatches on the kind first).
  template <class Head> Head head() const {
    if (!Head::accepts(kind()))
      throw std::logic_error("poc: read a message head that does not belong to its kind");
    Head h;
    std::memcpy(&h, bytes_.data() + sizeof(Envelope), sizeof h);
    return h;
  }

  /// The bytes after the head.
  std::span<const std::byte> body() const noexcept;
  /// Host number of the sender.
  int source() const noexcept { return source_; }

  /// Receives the next `n` out-of-band bytes of this message into `dst`.
  /// Throws decode_error if the message announced fewer blocks or the
  /// block's size differs.
  void receive(void *dst, std::size_t n) override;

  /// The size of the next out-of-band block, probed (not received), so the
  /// Reader rejects a corrupted length before it allocates. A block of
  /// kChunk bytes or more spans several chunks whose count the envelope
  /// does not record: its size is unknown (std::nullopt;
  /// Limits::max_block_bytes bounds it). std::nullopt too if no block is
  /// announced or none arrives.
  std::optional<std::size_t> next_block_size() const noexcept override;

  /// Records that the transport itself took the announced blocks (the
  /// chunks of an `oversized` message, received or given up on by the
  /// poller): destruction then does not drain them.
  void blocks_taken() noexcept { next_oob_ = envelope_.oob_count; }

private:
  /// The constructors' checks (see the first); keeps `link` if needed.
  void check(const std::shared_ptr<Link> &link);
  void drain() noexcept;

  int source_;
  Blocks *blocks_;
  std::shared_ptr<const Link> link_;
  /// The bytes: owned_, or a part of batch_.
  std::vector<std::byte> owned_;
  std::shared_ptr<const std::vector<std::byte>> batch_;
  std::span<const std::byte> bytes_;
  Envelope envelope_;
  unsigned next_oob_ = 0;
  /// next_block_size found that the next block did not arrive in time;
  /// receive then fails at once instead of waiting a second timeout.
  mutable bool next_missing_ = false;
};

} // namespace poc::detail
