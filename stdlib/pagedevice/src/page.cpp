//===- page.cpp - A page of unstructured data -----------------------------===//

#include "pocstd/page.hpp"

#include <poc/serialize.hpp>

#include <cstring>

namespace pocstd {

Page::Page(std::size_t n) : buffer_(n) {}

Page::Page(std::size_t n, const unsigned char *data) : buffer_(n) {
  if (n != 0)
    std::memcpy(buffer_.data(), data, n);
}

void Page::resize(std::size_t n) { buffer().resize(n); }

void Page::own() {
  const std::shared_ptr<const AlignedBuffer> lent = std::move(lent_);
  buffer_.resizeForOverwrite(lent->size());
  if (lent->size() != 0)
    std::memcpy(buffer_.data(), lent->data(), lent->size());
}

void Page::poc_write(poc::Writer &w) const {
  if (lent_)
    w.write_block(lent_->data(), lent_->size(), lent_);
  else
    w.write_block(buffer_.data(), buffer_.size());
}

void Page::poc_read(poc::Reader &r) {
  poc::Reader::BlockHeader header = r.read_block_header(kMaxPageBytes);
  resizeForOverwrite(header.size);
  r.read_block_payload(header, buffer_.data());
}

} // namespace pocstd
