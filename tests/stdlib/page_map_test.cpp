#include "pocstd/domain.hpp"
#include "pocstd/page_map.hpp"

#include <gtest/gtest.h>

#include <set>
#include <vector>

using namespace pocstd;

TEST(PageMap, CirculantAndDensePerServer) {
  PageMap map(3, 4, 5, 7);
  std::vector<std::set<std::size_t>> used(7);
  for (int i1 = 0; i1 < 3; ++i1)
    for (int i2 = 0; i2 < 4; ++i2)
      for (int i3 = 0; i3 < 5; ++i3) {
        address a = map.PageAddress(i1, i2, i3);
        ASSERT_EQ(a.server_id, (i1 + i2 + i3) % 7);
        ASSERT_TRUE(used[a.server_id].insert(a.page_index).second);
      }
  std::size_t total = 0;
  for (int s = 0; s < 7; ++s) {
    ASSERT_EQ(used[s].size(), map.PagesOnServer(s));
    if (!used[s].empty()) {
      EXPECT_EQ(*used[s].rbegin(), used[s].size() - 1); // first free index
    }
    total += used[s].size();
  }
  EXPECT_EQ(total, 60u);
}

TEST(PageMap, FirstPagesOfServerZero) {
  PageMap map(2, 2, 2, 2);
  EXPECT_EQ(map.PageAddress(0, 0, 0).page_index, 0u);
  EXPECT_EQ(map.PageAddress(0, 1, 1).page_index, 1u);
  EXPECT_EQ(map.PageAddress(1, 0, 1).page_index, 2u);
}

TEST(PageMap, BadArguments) {
  EXPECT_THROW(PageMap(0, 1, 1, 1), std::invalid_argument);
  EXPECT_THROW(PageMap(1, 1, 1, 0), std::invalid_argument);
  PageMap map(2, 2, 2, 3);
  EXPECT_THROW(map.PageAddress(2, 0, 0), std::out_of_range);
  EXPECT_THROW(map.PageAddress(0, -1, 0), std::out_of_range);
  EXPECT_THROW(map.PagesOnServer(3), std::out_of_range);
}

TEST(Domain, SetOperationsAndPrinting) {
  Domain a(0, 128, 2432, 2560, 0, 16384);
  EXPECT_EQ(a.str(), "0-127 x 2432-2559 x 0-16383");
  EXPECT_EQ(a.size(), 128LL * 128 * 16384);
  Domain b = Domain::box(64, 2500, 10);
  Domain c = a.intersect(b);
  EXPECT_EQ(c, Domain(0, 64, 2432, 2500, 0, 10));
  EXPECT_TRUE(a.contains(c));
  EXPECT_FALSE(c.contains(a));
  EXPECT_TRUE(Domain(0, 1, 0, 1, 5, 6).intersect(Domain::box(1, 1, 5)).empty());
}

TEST(PageMap, SlabsAlongDimensionOne) {
  // 7 page planes over 3 servers: slabs [0,2), [2,4), [4,7).
  PageMap map(7, 2, 3, 3, PageLayout::Slabs);
  EXPECT_EQ(map.layout(), PageLayout::Slabs);
  const int slabOf[7] = {0, 0, 1, 1, 2, 2, 2};
  std::vector<std::set<std::size_t>> used(3);
  for (int i1 = 0; i1 < 7; ++i1)
    for (int i2 = 0; i2 < 2; ++i2)
      for (int i3 = 0; i3 < 3; ++i3) {
        address a = map.PageAddress(i1, i2, i3);
        ASSERT_EQ(a.server_id, slabOf[i1]) << "plane " << i1;
        ASSERT_TRUE(used[a.server_id].insert(a.page_index).second);
      }
  EXPECT_EQ(map.PagesOnServer(0), 12u);
  EXPECT_EQ(map.PagesOnServer(1), 12u);
  EXPECT_EQ(map.PagesOnServer(2), 18u);
  // More servers than planes: the spare servers hold nothing.
  PageMap thin(2, 1, 1, 4, PageLayout::Slabs);
  EXPECT_EQ(thin.PageAddress(0, 0, 0).server_id, 1);
  EXPECT_EQ(thin.PageAddress(1, 0, 0).server_id, 3);
  EXPECT_EQ(thin.PagesOnServer(0) + thin.PagesOnServer(2), 0u);
}
