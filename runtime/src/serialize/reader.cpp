//===- serialize/reader.cpp - Reader checks and their error messages ------===//
#include "poc/serialize/reader.hpp"
#include "poc/serialize/block_source.hpp"
#include "poc/serialize/errors.hpp"

#include <optional>
#include <string>

namespace poc {

Reader::Reader(std::span<const std::byte> bytes, BlockSource *out_of_band, const Limits &limits)
    : begin_(bytes.data()), pos_(bytes.data()), end_(bytes.data() + bytes.size()),
      source_(out_of_band), limits_(limits) {
  if (bytes.size() > limits_.max_message_bytes)
    throw decode_error("poc: message of " + std::to_string(bytes.size()) +
                       " bytes exceeds the limit of " + std::to_string(limits_.max_message_bytes) +
                       " bytes");
}

void Reader::fail(std::string_view what) const {
  throw decode_error("poc: malformed message at byte " + std::to_string(offset()) + ": " +
                     std::string(what));
}

void Reader::fail_truncated(std::size_t needed) const {
  throw decode_error("poc: truncated message at byte " + std::to_string(offset()) + ": need " +
                     std::to_string(needed) + " bytes, " + std::to_string(remaining()) + " remain");
}

void Reader::fail_depth() const {
  throw decode_error("poc: malformed message at byte " + std::to_string(offset()) +
                     ": values nested deeper than the limit of " +
                     std::to_string(limits_.max_depth));
}

void Reader::fail_count(std::uint64_t n, std::size_t min_element_bytes) const {
  std::string msg = "poc: malformed message at byte " + std::to_string(offset()) +
                    ": element count " + std::to_string(n);
  if (n > limits_.max_elements)
    msg += " exceeds the limit of " + std::to_string(limits_.max_elements);
  else
    msg += " cannot fit in the " + std::to_string(remaining()) +
           " remaining bytes (each element takes at least " + std::to_string(min_element_bytes) +
           ")";
  throw decode_error(msg);
}

std::uint64_t Reader::read_varint_slow() {
  std::uint64_t value = 0;
  for (unsigned shift = 0;; shift += 7) {
    std::uint8_t b = read_byte();
    // The tenth byte may hold only bit 63; anything more overflows 64 bits.
    if (shift == 63 && b > 1)
      fail("varint overflows 64 bits");
    value |= std::uint64_t{b & 0x7Fu} << shift;
    if ((b & 0x80) == 0)
      return value;
  }
}

std::uint64_t Reader::read_size(std::size_t max_count) {
  std::uint64_t n = read_varint();
  if (n > max_count)
    throw decode_error("poc: malformed message at byte " + std::to_string(offset()) + ": count " +
                       std::to_string(n) + " exceeds the maximum of " + std::to_string(max_count));
  if (n > remaining())
    fail_count(n, 1);
  return n;
}

Reader::BlockHeader Reader::check_block_header(std::uint64_t header, std::size_t max_bytes) {
  std::uint64_t size = header >> 1;
  bool out_of_band = (header & 1) != 0;
  if (size > max_bytes)
    throw decode_error("poc: malformed message at byte " + std::to_string(offset()) +
                       ": block of " + std::to_string(size) +
                       " bytes exceeds the expected maximum of " + std::to_string(max_bytes));
  if (!out_of_band) {
    if (size > remaining())
      fail_truncated(static_cast<std::size_t>(size));
    return {static_cast<std::size_t>(size), false};
  }
  if (size > limits_.max_block_bytes)
    throw decode_error("poc: malformed message at byte " + std::to_string(offset()) +
                       ": out-of-band block of " + std::to_string(size) +
                       " bytes exceeds the limit of " + std::to_string(limits_.max_block_bytes));
  if (source_ == nullptr)
    fail("the message refers to an out-of-band block but none can be received");
  std::optional<std::size_t> announced = source_->next_block_size();
  if (announced && *announced != size)
    throw decode_error("poc: malformed message at byte " + std::to_string(offset()) +
                       ": out-of-band block of " + std::to_string(size) +
                       " bytes where the next block has " + std::to_string(*announced));
  return {static_cast<std::size_t>(size), true};
}

void Reader::receive_block(std::size_t n, void *dst) {
  if (source_ == nullptr)
    fail("the message refers to an out-of-band block but none can be received");
  source_->receive(dst, n);
  ++blocks_received_;
}

void Reader::read_block(void *dst, std::size_t n) {
  BlockHeader h = read_block_header(n);
  if (h.size != n)
    throw decode_error("poc: malformed message at byte " + std::to_string(offset()) +
                       ": block of " + std::to_string(h.size) + " bytes where " +
                       std::to_string(n) + " were expected");
  read_block_payload(h, dst);
}

void Reader::expect_end() const {
  if (remaining() != 0)
    throw decode_error("poc: malformed message: " + std::to_string(remaining()) +
                       " trailing bytes after byte " + std::to_string(offset()));
}

} // namespace poc
