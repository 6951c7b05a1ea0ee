#include "message.hpp"

#include "blocks.hpp"

#include <fmt/format.h>
#include <poc/errors.hpp>
#include <poc/transport.hpp>

#include <cstdio>
#include <cstring>
#include <string>

namespace poc::detail {

Message::Message(int source, std::vector<std::byte> bytes, Blocks *blocks,
                 const std::shared_ptr<Link> &link)
    : source_(source), blocks_(blocks), owned_(std::move(bytes)), bytes_(owned_) {
  check(link);
}

Message::Message(int source, std::shared_ptr<const std::vector<std::byte>> batch,
                 std::span<const std::byte> bytes, Blocks *blocks,
                 const std::shared_ptr<Link> &link)
    : source_(source), blocks_(blocks), batch_(std::move(batch)), bytes_(bytes) {
  check(link);
}

void Message::check(const std::shared_ptr<Link> &link) {
  if (bytes_.size() < sizeof(Envelope))
    throw protocol_error("poc: message of " + std::to_string(bytes_.size()) +
                         " bytes is shorter than the envelope (" +
                         std::to_string(sizeof(Envelope)) + ")");
  std::memcpy(&envelope_, bytes_.data(), sizeof envelope_);
  if (envelope_.magic != Envelope::kMagic)
    throw protocol_error("poc: message without the poc++ magic number");
  auto k = static_cast<std::uint8_t>(envelope_.kind);
  if (k < static_cast<std::uint8_t>(Kind::call) || k > static_cast<std::uint8_t>(Kind::last))
    throw protocol_error("poc: unknown message kind " + std::to_string(k));
  if (bytes_.size() < sizeof(Envelope) + head_bytes(envelope_.kind))
    throw protocol_error("poc: message of kind " + std::to_string(k) + " is shorter than its head");
  if (envelope_.kind == Kind::reply) {
    const Status status = head<ReplyHead>().status;
    if (status != Status::ok && status != Status::failed)
      throw protocol_error("poc: unknown reply status");
  }
  // Only a message with blocks needs its link (and keeps a connection from
  // being closed under it, see Connections).
  if (envelope_.oob_count)
    link_ = link;
}

Message::~Message() { drain(); }

std::span<const std::byte> Message::body() const noexcept {
  return bytes_.subspan(sizeof(Envelope) + head_bytes(kind()));
}

void Message::receive(void *dst, std::size_t n) {
  auto *out = static_cast<std::byte *>(dst);
  if ((!link_ || !blocks_) && envelope_.oob_count)
    throw decode_error("poc: a message that arrived without a link announces out-of-band blocks");
  if (next_missing_)
    throw decode_error("poc: an out-of-band block announced by rank " + std::to_string(source_) +
                       " did not arrive within the block timeout");
  for (std::size_t c = 0, off = 0; c < chunks_of(n); ++c, off += kChunk) {
    if (next_oob_ >= envelope_.oob_count)
      throw decode_error("poc: message refers to more out-of-band blocks than it announced");
    std::uint32_t tag = blocks_->tag(envelope_.oob_tag, next_oob_++);
    blocks_->receive(*link_, source_, tag, out + off, std::min(kChunk, n - off));
  }
}

std::optional<std::size_t> Message::next_block_size() const noexcept {
  if (next_oob_ >= envelope_.oob_count || !link_ || !blocks_)
    return std::nullopt;
  try {
    std::optional<std::size_t> first =
        blocks_->probe(*link_, source_, blocks_->tag(envelope_.oob_tag, next_oob_));
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
  if (next_oob_ >= envelope_.oob_count || !link_ || !blocks_)
    return;
  try {
    while (next_oob_ < envelope_.oob_count) {
      std::uint32_t tag = blocks_->tag(envelope_.oob_tag, next_oob_++);
      if (!blocks_->discard(*link_, source_, tag, std::chrono::milliseconds(2000))) {
        fmt::print(stderr, "poc: host {}: out-of-band block announced by host {} never arrived\n",
                   blocks_->self(), source_);
        return;
      }
    }
  } catch (...) {
  }
}

void MessageDeleter::operator()(Message *m) const noexcept { delete m; }

std::span<const std::byte> body_of(const Message &m) noexcept { return m.body(); }

BlockSource &blocks_of(Message &m) noexcept { return m; }

} // namespace poc::detail
