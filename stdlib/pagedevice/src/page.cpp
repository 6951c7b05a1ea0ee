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

void Page::resize(std::size_t n) { buffer_.resize(n); }

void Page::poc_write(poc::Writer &w) const { w.write_block(buffer_.data(), buffer_.size()); }

void Page::poc_read(poc::Reader &r) {
  poc::Reader::BlockHeader header = r.read_block_header(kMaxPageBytes);
  buffer_.resizeForOverwrite(header.size);
  r.read_block_payload(header, buffer_.data());
}

} // namespace pocstd
