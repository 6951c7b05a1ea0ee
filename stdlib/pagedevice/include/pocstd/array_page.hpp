//===- pocstd/array_page.hpp - A 3D block of complex doubles ------*- C++ -*-===//
///
/// \file
/// ArrayPage: a Page holding an n1 x n2 x n3 block of complex doubles in
/// row-major order (x3 fastest), with the transposes the 3D FFT needs
/// (paper sections 2.1 and 4.2).
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/page.hpp"

#include <complex>
#include <cstddef>

namespace pocstd {

/// An n1 x n2 x n3 complex double block. Element (x1, x2, x3) is at
/// data()[(x1 * n2 + x2) * n3 + x3].
class ArrayPage : public Page {
public:
  using Element = std::complex<double>;

  /// An empty page of shape 0 x 0 x 0 (see Page()).
  ArrayPage() = default;
  /// A zero page of shape \p n1 x \p n2 x \p n3; throws page_error unless
  /// every extent is positive and the page is at most kMaxPageBytes.
  ArrayPage(int n1, int n2, int n3);
  /// A page of that shape holding a copy of the 2*n1*n2*n3 doubles at \p data
  /// (real and imaginary parts interleaved, as std::complex<double>).
  ArrayPage(int n1, int n2, int n3, const double *data);

  int n1() const { return n1_; }
  int n2() const { return n2_; }
  int n3() const { return n3_; }
  /// Number of elements, n1 * n2 * n3.
  std::size_t elements() const;
  /// Bytes an n1 x n2 x n3 page occupies; throws page_error for a
  /// non-positive extent or a page larger than kMaxPageBytes.
  static std::size_t bytesFor(int n1, int n2, int n3);

  Element *data() { return reinterpret_cast<Element *>(bytes()); }
  const Element *data() const { return reinterpret_cast<const Element *>(bytes()); }
  Element &at(int x1, int x2, int x3) { return data()[index(x1, x2, x3)]; }
  const Element &at(int x1, int x2, int x3) const { return data()[index(x1, x2, x3)]; }

  /// Gives the page the shape \p n1 x \p n2 x \p n3 without touching its
  /// bytes: after a device read, which transfers bytes only. Throws
  /// page_error unless size() matches the shape.
  void setShape(int n1, int n2, int n3);

  /// Makes this a zero page of shape \p n1 x \p n2 x \p n3, reusing the
  /// storage when it is large enough.
  void assign(int n1, int n2, int n3);
  /// As assign, but with unspecified contents, for a caller that overwrites
  /// every element.
  void assignForOverwrite(int n1, int n2, int n3);
  /// Makes the page empty (shape 0 x 0 x 0) but keeps its storage, so that a
  /// page reused for many reads allocates once.
  void clear();

  /// Swaps dimensions 1 and 3: the n1 x n2 x n3 block becomes n3 x n2 x n1
  /// with new(x3, x2, x1) = old(x1, x2, x3).
  void transpose13();
  /// Swaps dimensions 2 and 3: the block becomes n1 x n3 x n2.
  void transpose23();
  /// As transpose13/transpose23, using \p scratch as the out-of-place
  /// target and handing the old storage back in it: a caller that keeps one
  /// scratch buffer transposes any number of pages without allocating.
  void transpose13(AlignedBuffer &scratch);
  void transpose23(AlignedBuffer &scratch);
  /// Makes \p dst the transpose13 / transpose23 of \p src (one pass over
  /// memory, reusing dst's storage).
  static void transposed13(const ArrayPage &src, ArrayPage &dst);
  static void transposed23(const ArrayPage &src, ArrayPage &dst);

  /// Serialisation: the shape, then the page bytes.
  void poc_write(poc::Writer &w) const;
  /// Throws poc::decode_error when the shape does not match the byte count.
  void poc_read(poc::Reader &r);

private:
  std::size_t index(int x1, int x2, int x3) const {
    return (static_cast<std::size_t>(x1) * n2_ + x2) * n3_ + x3;
  }
  static bool shapeMatches(int n1, int n2, int n3, std::size_t bytes);

  int n1_ = 0;
  int n2_ = 0;
  int n3_ = 0;
};

} // namespace pocstd
