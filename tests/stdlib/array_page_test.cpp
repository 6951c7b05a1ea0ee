#include "pocstd/array_page.hpp"

#include <gtest/gtest.h>

using pocstd::ArrayPage;
using C = std::complex<double>;

namespace {
C value(int x1, int x2, int x3) { return C(x1 * 10000 + x2 * 100 + x3, -x1 - x2 - x3); }

ArrayPage numbered(int n1, int n2, int n3) {
  ArrayPage p(n1, n2, n3);
  for (int a = 0; a < n1; ++a)
    for (int b = 0; b < n2; ++b)
      for (int c = 0; c < n3; ++c)
        p.at(a, b, c) = value(a, b, c);
  return p;
}
} // namespace

TEST(ArrayPage, ShapeAndLayout) {
  ArrayPage p = numbered(3, 4, 5);
  EXPECT_EQ(p.size(), 3u * 4 * 5 * sizeof(C));
  EXPECT_EQ(p.elements(), 60u);
  EXPECT_EQ(p.data()[(2 * 4 + 3) * 5 + 4], value(2, 3, 4));
}

TEST(ArrayPage, Transpose13NonCubic) {
  ArrayPage p = numbered(3, 4, 37);
  p.transpose13();
  ASSERT_EQ(p.n1(), 37);
  ASSERT_EQ(p.n2(), 4);
  ASSERT_EQ(p.n3(), 3);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 37; ++c)
        ASSERT_EQ(p.at(c, b, a), value(a, b, c));
  p.transpose13();
  EXPECT_EQ(p.n1(), 3);
  EXPECT_EQ(p.at(2, 3, 36), value(2, 3, 36));
}

TEST(ArrayPage, Transpose23NonCubic) {
  ArrayPage p = numbered(5, 19, 33);
  p.transpose23();
  ASSERT_EQ(p.n1(), 5);
  ASSERT_EQ(p.n2(), 33);
  ASSERT_EQ(p.n3(), 19);
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < 19; ++b)
      for (int c = 0; c < 33; ++c)
        ASSERT_EQ(p.at(a, c, b), value(a, b, c));
}

TEST(ArrayPage, BadShapesAreRejected) {
  EXPECT_THROW(ArrayPage(0, 1, 1), pocstd::page_error);
  EXPECT_THROW(ArrayPage(1, -2, 1), pocstd::page_error);
  EXPECT_THROW(ArrayPage(1 << 20, 1 << 20, 1), pocstd::page_error);
  ArrayPage p(2, 2, 2);
  EXPECT_THROW(p.setShape(2, 2, 3), pocstd::page_error);
  p.setShape(1, 4, 2);
  EXPECT_EQ(p.n2(), 4);
}

TEST(ArrayPage, ClearKeepsStorageAssignReuses) {
  ArrayPage p = numbered(4, 4, 4);
  const std::byte *storage = p.bytes();
  p.clear();
  EXPECT_EQ(p.size(), 0u);
  EXPECT_EQ(p.n1(), 0);
  p.assign(2, 4, 8);
  EXPECT_EQ(p.bytes(), storage);
  EXPECT_EQ(p.at(1, 3, 7), C(0, 0));
}

TEST(ArrayPage, ConstructFromDoubles) {
  double d[4] = {1, 2, 3, 4};
  ArrayPage p(1, 1, 2, d);
  EXPECT_EQ(p.at(0, 0, 1), C(3, 4));
}
