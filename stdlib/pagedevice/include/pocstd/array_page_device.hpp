//===- pocstd/array_page_device.hpp - Array pages, transposed near the data -*- C++ -*-===//
///
/// \file
/// ArrayPageDevice (paper section 2.2): a PageDevice of n1 x n2 x n3 complex
/// double pages with transposing reads and writes, so that a transpose runs
/// in the page server, close to the data, instead of in the client.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/array_page.hpp"
#include "pocstd/page_device.hpp"

namespace pocstd {

/// A device of ArrayPages of one shape. The plain read/write (inherited)
/// move pages unchanged; the _transpose13/_transpose23 variants transpose on
/// the way out and back on the way in.
class ArrayPageDevice : public PageDevice {
public:
  /// A device with no medium (see PageDevice()).
  ArrayPageDevice() = default;
  /// \p NumberOfPages pages of \p n1 x \p n2 x \p n3 complex doubles on
  /// \p storage. Throws page_error for non-positive extents.
  ArrayPageDevice(Storage storage, std::size_t NumberOfPages, int n1, int n2, int n3);

  /// Reads page \p PageIndex into \p p as an n3 x n2 x n1 page (dimensions 1
  /// and 3 swapped). Like read, \p p may be empty on entry.
  void read_transpose13(ArrayPage &p, std::size_t PageIndex);
  /// Writes \p p, an n3 x n2 x n1 page, back as page \p PageIndex in the
  /// device's n1 x n2 x n3 layout. Throws page_error for another shape.
  void write_transpose13(const ArrayPage &p, std::size_t PageIndex);
  /// As read_transpose13, swapping dimensions 2 and 3 (an n1 x n3 x n2 page).
  void read_transpose23(ArrayPage &p, std::size_t PageIndex);
  /// As write_transpose13 for an n1 x n3 x n2 page.
  void write_transpose23(const ArrayPage &p, std::size_t PageIndex);

  int n1() const { return n1_; }
  int n2() const { return n2_; }
  int n3() const { return n3_; }

  // The saved state (poc_write below): PageDevice's, then the page shape.
  // poc++ derives its layout hash from the fields (docs/persistence.md).
  void poc_write(poc::Writer &w) const;
  /// Throws poc::decode_error unless the shape matches the page size.
  void poc_read(poc::Reader &r);

private:
  void checkShape(const ArrayPage &p, int s1, int s2, int s3, const char *operation) const;

  int n1_ = 0;
  int n2_ = 0;
  int n3_ = 0;
  /// Reused by the transposing methods (a process serves one method at a
  /// time), so that a transposed transfer allocates nothing in the server.
  AlignedBuffer scratch_;
  ArrayPage staging_;
};

} // namespace pocstd
