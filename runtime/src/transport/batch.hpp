#pragma once
/// \file
/// A batch: several messages to one host in one frame (Kind::batch), so
/// that calls started while an earlier message to their host is still
/// unread travel together and cost their receiver one message, parsed and
/// routed at once, not one each (docs/runtime.md section 7, "Coalesced
/// starts"). The body is the messages in the order sent, each as an 8-byte
/// record head (its size) and its bytes, padded to 8.

#include "posted_receives.hpp"
#include "wire.hpp"

#include <poc/errors.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace poc::detail {

class BatchFrame {
public:
  /// The most bytes a batch takes, envelope included: what one posted
  /// receive takes, so that a batch travels on any path a message does.
  static constexpr std::size_t kMaxBytes = PostedReceives::kSlotBytes;

  /// True if a message of `bytes` may travel in a batch at all.
  static constexpr bool may_hold(std::size_t bytes) noexcept {
    return sizeof(Envelope) + record_size(bytes) <= kMaxBytes;
  }

  bool empty() const noexcept { return messages_ == 0; }
  std::size_t messages() const noexcept { return messages_; }
  /// True if a message of `bytes` fits beside the ones already in.
  bool fits(std::size_t bytes) const noexcept {
    return (bytes_.empty() ? sizeof(Envelope) : bytes_.size()) + record_size(bytes) <= kMaxBytes;
  }

  /// Appends `message` (fits() must hold).
  void append(std::span<const std::byte> message) {
    if (bytes_.empty()) {
      Envelope e;
      e.kind = Kind::batch;
      bytes_.resize(sizeof e);
      std::memcpy(bytes_.data(), &e, sizeof e);
    }
    const std::uint64_t head = message.size();
    const std::size_t at = bytes_.size();
    bytes_.resize(at + record_size(message.size()));
    std::memcpy(bytes_.data() + at, &head, sizeof head);
    if (!message.empty())
      std::memcpy(bytes_.data() + at + sizeof head, message.data(), message.size());
    ++messages_;
  }

  /// What to send: the one message alone if there is only one (its
  /// receiver then unpacks nothing), else the batch's frame.
  std::span<const std::byte> to_send() const noexcept {
    if (messages_ != 1)
      return bytes_;
    std::uint64_t size = 0;
    std::memcpy(&size, bytes_.data() + sizeof(Envelope), sizeof size);
    return std::span<const std::byte>(bytes_).subspan(sizeof(Envelope) + sizeof size, size);
  }

  /// Empties it, keeping its memory for the next batch.
  void clear() noexcept {
    bytes_.clear();
    messages_ = 0;
  }

  /// Calls `take(message)` for each message in the body of a batch, in
  /// order; throws protocol_error if a record runs past the body's end
  /// (`take` has then had the whole messages before it).
  template <class Take> static void unpack(std::span<const std::byte> body, Take &&take) {
    std::size_t at = 0;
    while (at < body.size()) {
      std::uint64_t size = 0;
      if (body.size() - at < sizeof size)
        throw protocol_error("poc: a batch ends inside a record head");
      std::memcpy(&size, body.data() + at, sizeof size);
      if (size > body.size() - at - sizeof size)
        throw protocol_error("poc: a batch's message of " + std::to_string(size) +
                             " bytes runs past its end");
      take(body.subspan(at + sizeof size, static_cast<std::size_t>(size)));
      at += record_size(static_cast<std::size_t>(size));
    }
  }

private:
  static constexpr std::size_t record_size(std::size_t bytes) noexcept {
    return sizeof(std::uint64_t) + ((bytes + 7) & ~std::size_t{7});
  }

  std::vector<std::byte> bytes_;
  std::size_t messages_ = 0;
};

} // namespace poc::detail
