//===- page.cpp - A page of unstructured data -----------------------------===//

#include "pocstd/page.hpp"

#include <cstring>

namespace pocstd {

Page::Page(std::size_t n) : buffer_(n) {}

Page::Page(std::size_t n, const unsigned char* data) : buffer_(n) {
  if (n != 0)
    std::memcpy(buffer_.data(), data, n);
}

void Page::resize(std::size_t n) { buffer_.resize(n); }

} // namespace pocstd
