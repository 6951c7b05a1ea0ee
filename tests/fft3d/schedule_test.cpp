#include "fft3d/schedule.hpp"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

using fft3d::PassSchedule;
using pocstd::Domain;

TEST(PassSchedule, EveryLineOnceAcrossProcessesAndIterations) {
  Domain array = Domain::box(10, 12, 14), page = Domain::box(4, 4, 4);
  for (int dim = 0; dim < 3; ++dim)
    for (int F : {1, 2, 3, 7}) {
      PassSchedule s(array, page, dim, F);
      std::set<std::tuple<long, long, long>> seen;
      long long points = 0;
      for (int p = 0; p < F; ++p)
        for (int i = 0; i < s.iterations(); ++i)
          if (auto d = s.line(p, i)) {
            EXPECT_EQ(d->lo[dim], 0);
            EXPECT_EQ(d->hi[dim], array.hi[dim]);
            EXPECT_TRUE(array.contains(*d));
            EXPECT_TRUE(s.slab(p).contains(*d));
            EXPECT_TRUE(seen.insert({d->lo[0], d->lo[1], d->lo[2]}).second);
            points += d->size();
          }
      EXPECT_EQ(static_cast<long long>(seen.size()), s.lines());
      EXPECT_EQ(points, array.size());
      EXPECT_FALSE(s.line(0, s.iterations()).has_value());
    }
}

TEST(PassSchedule, SlabsAlongFirstDimensionForFft3) {
  PassSchedule s(Domain::box(16, 16, 16), Domain::box(4, 4, 4), 2, 4);
  EXPECT_EQ(s.lines(), 16);
  EXPECT_EQ(s.iterations(), 4);
  EXPECT_EQ(s.slab(1), Domain(4, 8, 0, 16, 0, 16));
}

TEST(PassSchedule, PagePlanesCoverTheArrayOnceInSlabsAlongDimensionOne) {
  Domain array = Domain::box(10, 12, 14), page = Domain::box(4, 4, 4);
  PassSchedule s(array, page, fft3d::kPlanes23, 2);
  EXPECT_EQ(s.lines(), 3); // pages along dimension 1
  EXPECT_EQ(s.iterations(), 2);
  EXPECT_EQ(s.line(0, 0), Domain(0, 4, 0, 12, 0, 14));
  EXPECT_EQ(s.line(1, 0), Domain(4, 8, 0, 12, 0, 14));
  EXPECT_EQ(s.line(1, 1), Domain(8, 10, 0, 12, 0, 14));
  EXPECT_FALSE(s.line(0, 1).has_value());
}

TEST(PassSchedule, TransformPasses) {
  EXPECT_EQ(fft3d::transformPasses(3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(fft3d::transformPasses(2), (std::vector<int>{fft3d::kPlanes23, 0}));
  EXPECT_THROW(fft3d::transformPasses(4), std::invalid_argument);
}
