//===- serialize/block_source.cpp - In-memory out-of-band blocks ----------===//
#include "poc/serialize/block_source.hpp"
#include "poc/serialize/errors.hpp"

#include <cstring>
#include <string>

namespace poc {

void MemoryBlockSource::receive(void *dst, std::size_t n) {
  if (next_ == blocks_.size())
    throw decode_error("poc: message refers to more out-of-band blocks than the " +
                       std::to_string(blocks_.size()) + " that were sent");
  const Writer::Block &b = blocks_[next_];
  if (b.size != n)
    throw decode_error("poc: out-of-band block " + std::to_string(next_) + " has " +
                       std::to_string(b.size) + " bytes where the message expects " +
                       std::to_string(n));
  if (n != 0)
    std::memcpy(dst, b.data, n);
  ++next_;
}

} // namespace poc
