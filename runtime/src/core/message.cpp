#include <fmt/format.h>
#include <poc/message.hpp>

#include "host.hpp"

#include <poc/errors.hpp>

#include <cstdio>
#include <cstring>
#include <string>

namespace poc::detail {

Message::Message(int source, std::vector<std::byte> bytes, std::shared_ptr<const Link> link)
    : source_(source), bytes_(std::move(bytes)) {
  if (bytes_.size() < sizeof(WireHeader))
    throw protocol_error("poc: message of " + std::to_string(bytes_.size()) +
                         " bytes is shorter than the header (" +
                         std::to_string(sizeof(WireHeader)) + ")");
  std::memcpy(&header_, bytes_.data(), sizeof header_);
  if (header_.magic != WireHeader::kMagic)
    throw protocol_error("poc: message without the poc++ magic number");
  auto k = static_cast<std::uint8_t>(header_.kind);
  if (k < static_cast<std::uint8_t>(Kind::call) || k > static_cast<std::uint8_t>(Kind::last))
    throw protocol_error("poc: unknown message kind " + std::to_string(k));
  if (header_.status != Status::ok && header_.status != Status::exception)
    throw protocol_error("poc: unknown reply status");
  // Only a message with blocks needs its link (and keeps a connection from
  // being closed under it, see Connections).
  if (header_.oob_count)
    link_ = std::move(link);
}

Message::~Message() { drain(); }

std::span<const std::byte> Message::payload() const noexcept {
  return std::span<const std::byte>(bytes_).subspan(sizeof(WireHeader));
}

void Message::receive(void *dst, std::size_t n) {
  Engine &engine = host().engine();
  auto *out = static_cast<std::byte *>(dst);
  if (!link_ && header_.oob_count)
    throw decode_error("poc: a message that arrived without a link announces out-of-band blocks");
  if (next_missing_)
    throw decode_error("poc: an out-of-band block announced by rank " + std::to_string(source_) +
                       " did not arrive within the block timeout");
  for (std::size_t c = 0, off = 0; c < chunks_of(n); ++c, off += kChunk) {
    if (next_oob_ >= header_.oob_count)
      throw decode_error("poc: message refers to more out-of-band blocks than it announced");
    std::uint32_t tag = engine.block_tag(header_.oob_tag, next_oob_++);
    engine.receive_block(*link_, source_, tag, out + off, std::min(kChunk, n - off));
  }
}

std::optional<std::size_t> Message::next_block_size() const noexcept {
  if (next_oob_ >= header_.oob_count || !link_)
    return std::nullopt;
  try {
    const Engine &engine = host().engine();
    std::optional<std::size_t> first =
        engine.probe_block(*link_, source_, engine.block_tag(header_.oob_tag, next_oob_));
    if (!first)
      next_missing_ = true;
    if (first && *first == kChunk)
      return std::nullopt;
    return first;
  } catch (...) {
    return std::nullopt;
  }
}

void Message::drain() noexcept {
  if (next_oob_ >= header_.oob_count || !link_)
    return;
  try {
    Engine &engine = host().engine();
    while (next_oob_ < header_.oob_count) {
      std::uint32_t tag = engine.block_tag(header_.oob_tag, next_oob_++);
      if (!engine.discard_block(*link_, source_, tag, std::chrono::milliseconds(2000))) {
        fmt::print(stderr, "poc: host {}: out-of-band block announced by host {} never arrived\n",
                   engine.rank(), source_);
        return;
      }
    }
  } catch (...) {
  }
}

} // namespace poc::detail
