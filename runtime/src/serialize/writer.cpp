//===- serialize/writer.cpp - Writer buffer management --------------------===//
#include "poc/serialize/writer.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

namespace poc {

Writer::Writer(std::size_t initial_capacity) { buf_.resize(initial_capacity); }

Writer::Writer(Writer &&other) noexcept
    : buf_(std::move(other.buf_)), size_(std::exchange(other.size_, 0)),
      oob_threshold_(other.oob_threshold_), blocks_(std::move(other.blocks_)),
      keepers_(std::move(other.keepers_)) {
  other.buf_.clear();
  other.blocks_.clear();
  other.keepers_.clear();
}

Writer &Writer::operator=(Writer &&other) noexcept {
  if (this != &other) {
    buf_ = std::move(other.buf_);
    size_ = std::exchange(other.size_, 0);
    oob_threshold_ = other.oob_threshold_;
    blocks_ = std::move(other.blocks_);
    keepers_ = std::move(other.keepers_);
    other.buf_.clear();
    other.blocks_.clear();
    other.keepers_.clear();
  }
  return *this;
}

void Writer::grow(std::size_t n) {
  if (n > std::numeric_limits<std::size_t>::max() / 2 - size_)
    throw std::length_error("poc::Writer: message too large");
  // Doubling keeps appends amortized O(1); the floor avoids a string of tiny
  // reallocations for the first few fields of a message.
  std::size_t capacity = std::max({size_ + n, 2 * buf_.size(), std::size_t{256}});
  buf_.resize(capacity);
}

void Writer::write_varint(std::uint64_t n) {
  std::uint8_t encoded[10];
  std::size_t len = 0;
  while (n >= 0x80) {
    encoded[len++] = static_cast<std::uint8_t>(n | 0x80);
    n >>= 7;
  }
  encoded[len++] = static_cast<std::uint8_t>(n);
  write_bytes(encoded, len);
}

void Writer::truncate(std::size_t size, std::size_t blocks) {
  if (size > size_ || blocks > blocks_.size())
    throw std::logic_error("poc::Writer::truncate beyond what was written");
  size_ = size;
  blocks_.resize(blocks);
}

std::vector<std::byte> Writer::take() {
  buf_.resize(size_);
  std::vector<std::byte> out = std::move(buf_);
  buf_.clear();
  size_ = 0;
  return out;
}

} // namespace poc
