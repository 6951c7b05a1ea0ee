//===- array_page_device.cpp - Array pages, transposed near the data ------===//

#include "pocstd/array_page_device.hpp"

#include <poc/serialize.hpp>

#include <string>

namespace pocstd {

ArrayPageDevice::ArrayPageDevice(Storage storage, std::size_t NumberOfPages, int n1, int n2, int n3)
    : PageDevice(std::move(storage), NumberOfPages, ArrayPage::bytesFor(n1, n2, n3)), n1_(n1),
      n2_(n2), n3_(n3) {}

void ArrayPageDevice::poc_write(poc::Writer &w) const {
  PageDevice::poc_write(w);
  w.write_all(n1_, n2_, n3_);
}

void ArrayPageDevice::poc_read(poc::Reader &r) {
  PageDevice::poc_read(r);
  int s1 = 0, s2 = 0, s3 = 0;
  r.read_all(s1, s2, s3);
  if (s1 <= 0 || s2 <= 0 || s3 <= 0 || ArrayPage::bytesFor(s1, s2, s3) != PageSize())
    r.fail("ArrayPageDevice: saved page shape " + std::to_string(s1) + " x " + std::to_string(s2) +
           " x " + std::to_string(s3) + " does not match its " + std::to_string(PageSize()) +
           "-byte pages");
  n1_ = s1;
  n2_ = s2;
  n3_ = s3;
}

void ArrayPageDevice::checkShape(const ArrayPage &p, int s1, int s2, int s3,
                                 const char *operation) const {
  if (p.n1() != s1 || p.n2() != s2 || p.n3() != s3)
    throw page_error(std::string("ArrayPageDevice::") + operation + ": expected a " +
                     std::to_string(s1) + " x " + std::to_string(s2) + " x " + std::to_string(s3) +
                     " page, got " + std::to_string(p.n1()) + " x " + std::to_string(p.n2()) +
                     " x " + std::to_string(p.n3()));
}

void ArrayPageDevice::read_transpose13(ArrayPage &p, std::size_t PageIndex) {
  // read is virtual: a caching ArrayDevice serves this from its cache.
  read(p, PageIndex);
  p.setShape(n1_, n2_, n3_);
  p.transpose13(scratch_);
}

void ArrayPageDevice::write_transpose13(const ArrayPage &p, std::size_t PageIndex) {
  checkShape(p, n3_, n2_, n1_, "write_transpose13");
  ArrayPage::transposed13(p, staging_);
  write(staging_, PageIndex);
}

void ArrayPageDevice::read_transpose23(ArrayPage &p, std::size_t PageIndex) {
  read(p, PageIndex);
  p.setShape(n1_, n2_, n3_);
  p.transpose23(scratch_);
}

void ArrayPageDevice::write_transpose23(const ArrayPage &p, std::size_t PageIndex) {
  checkShape(p, n1_, n3_, n2_, "write_transpose23");
  ArrayPage::transposed23(p, staging_);
  write(staging_, PageIndex);
}

} // namespace pocstd
