//===- array_page.cpp - A 3D block of complex doubles ---------------------===//

#include "pocstd/array_page.hpp"

#include "pocstd/transpose.hpp"

#include <poc/serialize.hpp>

#include <cstring>
#include <string>
#include <utility>

namespace pocstd {

std::size_t ArrayPage::bytesFor(int n1, int n2, int n3) {
  if (n1 <= 0 || n2 <= 0 || n3 <= 0)
    throw page_error("ArrayPage: extents must be positive, got " + std::to_string(n1) + " x " +
                     std::to_string(n2) + " x " + std::to_string(n3));
  // Divide instead of multiplying so that the check itself cannot overflow.
  std::size_t limit = kMaxPageBytes / sizeof(Element);
  std::size_t count = static_cast<std::size_t>(n1);
  if (count > limit / static_cast<std::size_t>(n2) ||
      count * n2 > limit / static_cast<std::size_t>(n3))
    throw page_error("ArrayPage: a " + std::to_string(n1) + " x " + std::to_string(n2) + " x " +
                     std::to_string(n3) + " page exceeds the 1 GiB page limit");
  return count * n2 * n3 * sizeof(Element);
}

bool ArrayPage::shapeMatches(int n1, int n2, int n3, std::size_t bytes) {
  if (n1 == 0 && n2 == 0 && n3 == 0)
    return bytes == 0;
  if (n1 <= 0 || n2 <= 0 || n3 <= 0)
    return false;
  std::size_t limit = kMaxPageBytes / sizeof(Element);
  std::size_t count = static_cast<std::size_t>(n1);
  if (count > limit / static_cast<std::size_t>(n2) ||
      count * n2 > limit / static_cast<std::size_t>(n3))
    return false;
  return count * n2 * n3 * sizeof(Element) == bytes;
}

ArrayPage::ArrayPage(int n1, int n2, int n3)
    : Page(bytesFor(n1, n2, n3)), n1_(n1), n2_(n2), n3_(n3) {}

ArrayPage::ArrayPage(int n1, int n2, int n3, const double *data) : ArrayPage(n1, n2, n3) {
  std::memcpy(bytes(), data, size());
}

std::size_t ArrayPage::elements() const { return static_cast<std::size_t>(n1_) * n2_ * n3_; }

void ArrayPage::setShape(int n1, int n2, int n3) {
  if (!shapeMatches(n1, n2, n3, size()))
    throw page_error("ArrayPage: shape " + std::to_string(n1) + " x " + std::to_string(n2) + " x " +
                     std::to_string(n3) + " does not match a page of " + std::to_string(size()) +
                     " bytes");
  n1_ = n1;
  n2_ = n2;
  n3_ = n3;
}

void ArrayPage::assign(int n1, int n2, int n3) {
  std::size_t bytes = bytesFor(n1, n2, n3);
  resize(0);
  resize(bytes);
  n1_ = n1;
  n2_ = n2;
  n3_ = n3;
}

void ArrayPage::assignForOverwrite(int n1, int n2, int n3) {
  resizeForOverwrite(bytesFor(n1, n2, n3));
  n1_ = n1;
  n2_ = n2;
  n3_ = n3;
}

void ArrayPage::poc_write(poc::Writer &w) const {
  w.write(n1_);
  w.write(n2_);
  w.write(n3_);
  Page::poc_write(w);
}

void ArrayPage::poc_read(poc::Reader &r) {
  int s1 = r.read<int>(), s2 = r.read<int>(), s3 = r.read<int>();
  Page::poc_read(r);
  if (!shapeMatches(s1, s2, s3, size()))
    r.fail("ArrayPage: shape " + std::to_string(s1) + " x " + std::to_string(s2) + " x " +
           std::to_string(s3) + " does not match " + std::to_string(size()) + " bytes");
  n1_ = s1;
  n2_ = s2;
  n3_ = s3;
}

void ArrayPage::clear() {
  resize(0);
  n1_ = n2_ = n3_ = 0;
}

void ArrayPage::transposed13(const ArrayPage &src, ArrayPage &dst) {
  if (&src == &dst)
    throw page_error("ArrayPage::transposed13: source and target are the same page");
  if (src.size() == 0) {
    dst.clear();
    return;
  }
  int n1 = src.n1_, n2 = src.n2_, n3 = src.n3_;
  dst.assignForOverwrite(n3, n2, n1);
  // For each x2 the (x1, x3) plane is an n1 x n3 matrix with row stride
  // n2*n3; its transpose lands with row stride n2*n1.
  for (int x2 = 0; x2 < n2; ++x2)
    transposePlane(
        src.data() + static_cast<std::size_t>(x2) * n3, static_cast<std::size_t>(n2) * n3,
        dst.data() + static_cast<std::size_t>(x2) * n1, static_cast<std::size_t>(n2) * n1, n1, n3);
}

void ArrayPage::transposed23(const ArrayPage &src, ArrayPage &dst) {
  if (&src == &dst)
    throw page_error("ArrayPage::transposed23: source and target are the same page");
  if (src.size() == 0) {
    dst.clear();
    return;
  }
  int n1 = src.n1_, n2 = src.n2_, n3 = src.n3_;
  dst.assignForOverwrite(n1, n3, n2);
  std::size_t plane = static_cast<std::size_t>(n2) * n3;
  for (int x1 = 0; x1 < n1; ++x1)
    transposePlane(src.data() + x1 * plane, n3, dst.data() + x1 * plane, n2, n2, n3);
}

void ArrayPage::transpose13(AlignedBuffer &scratch) {
  // Out of place: an in-place 3D transpose of a non-cubic block needs cycle
  // following, which is slower than one extra page-sized buffer.
  ArrayPage out;
  swap(out.buffer(), scratch);
  transposed13(*this, out);
  swap(buffer(), out.buffer());
  swap(scratch, out.buffer());
  std::swap(n1_, n3_);
}

void ArrayPage::transpose23(AlignedBuffer &scratch) {
  ArrayPage out;
  swap(out.buffer(), scratch);
  transposed23(*this, out);
  swap(buffer(), out.buffer());
  swap(scratch, out.buffer());
  std::swap(n2_, n3_);
}

void ArrayPage::transpose13() {
  AlignedBuffer scratch;
  transpose13(scratch);
}

void ArrayPage::transpose23() {
  AlignedBuffer scratch;
  transpose23(scratch);
}

} // namespace pocstd
