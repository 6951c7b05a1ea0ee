// Array over local page servers: every layout and subdomain must match a
// plain in-memory copy of the same data, whether the array copies the
// servers' pages directly (memory devices without a cache: LocalPages) or
// calls the servers (caching devices, as a remote server is called).
#include "pocstd/array.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <tuple>
#include <vector>

using namespace pocstd;
using C = std::complex<double>;

namespace {

/// An N1 x N2 x N3 array on S local memory servers, with a reference copy.
class LocalArray {
public:
  LocalArray(int N1, int N2, int N3, int n1, int n2, int n3, int S, int cache = 0,
             PageLayout layout = PageLayout::Circulant)
      : n_{N1, N2, N3},
        map_((N1 + n1 - 1) / n1, (N2 + n2 - 1) / n2, (N3 + n3 - 1) / n3, S, layout) {
    std::vector<ArrayDevice *> refs;
    for (int s = 0; s < S; ++s) {
      servers_.push_back(std::make_unique<ArrayDevice>(
          Storage::memory(), std::max<std::size_t>(1, map_.PagesOnServer(s)), n1, n2, n3, cache));
      refs.push_back(servers_.back().get());
    }
    array_ = Array(Domain::box(N1, N2, N3), Domain::box(n1, n2, n3), refs, map_);
    std::mt19937 gen(42);
    std::uniform_real_distribution<double> u(-1, 1);
    ref_.resize(static_cast<std::size_t>(N1) * N2 * N3);
    for (C &x : ref_)
      x = {u(gen), u(gen)};
    array_.write(array_.ArrayDomain(), ref_.data());
  }
  Array &array() { return array_; }
  C at(std::int64_t x1, std::int64_t x2, std::int64_t x3) const {
    return ref_[static_cast<std::size_t>((x1 * n_[1] + x2) * n_[2] + x3)];
  }
  ArrayDevice &server(int s) { return *servers_[static_cast<std::size_t>(s)]; }
  /// Page copies the array made straight from or to the servers' memory.
  std::uint64_t sharedCopies() const {
    std::uint64_t n = 0;
    for (const auto &s : servers_)
      n += s->stats().pages_shared;
    return n;
  }

private:
  std::array<int, 3> n_;
  PageMap map_;
  std::vector<std::unique_ptr<ArrayDevice>> servers_;
  Array array_;
  std::vector<C> ref_;
};

/// Buffer index of array point x in domain d, for each layout.
std::size_t plainIndex(const Domain &d, std::int64_t x1, std::int64_t x2, std::int64_t x3) {
  return static_cast<std::size_t>(((x1 - d.lo[0]) * d.extent(1) + (x2 - d.lo[1])) * d.extent(2) +
                                  (x3 - d.lo[2]));
}
std::size_t t13Index(const Domain &d, std::int64_t x1, std::int64_t x2, std::int64_t x3) {
  return static_cast<std::size_t>(((x3 - d.lo[2]) * d.extent(1) + (x2 - d.lo[1])) * d.extent(0) +
                                  (x1 - d.lo[0]));
}
std::size_t t23Index(const Domain &d, std::int64_t x1, std::int64_t x2, std::int64_t x3) {
  return static_cast<std::size_t>(((x1 - d.lo[0]) * d.extent(2) + (x3 - d.lo[2])) * d.extent(1) +
                                  (x2 - d.lo[1]));
}

template <class Index>
void expectLayout(const LocalArray &a, const Domain &d, const std::vector<C> &buf, Index index) {
  for (auto x1 = d.lo[0]; x1 < d.hi[0]; ++x1)
    for (auto x2 = d.lo[1]; x2 < d.hi[1]; ++x2)
      for (auto x3 = d.lo[2]; x3 < d.hi[2]; ++x3)
        ASSERT_EQ(buf[index(d, x1, x2, x3)], a.at(x1, x2, x3))
            << "at " << x1 << "," << x2 << "," << x3 << " of " << d.str();
}

using Shape = std::tuple<int, int, int, int, int, int, int>;
/// Shared: memory devices without a cache, whose pages the array copies
/// directly; otherwise devices with a one-page cache, which it calls.
using LayoutCase = std::tuple<Shape, TransposeSite, bool>;

/// The LocalArray of a test case.
LocalArray arrayFor(const LayoutCase &c) {
  auto [N1, N2, N3, n1, n2, n3, S] = std::get<0>(c);
  LocalArray a(N1, N2, N3, n1, n2, n3, S, std::get<2>(c) ? 0 : 1);
  a.array().SetTransposeSite(std::get<1>(c));
  return a;
}
class ArrayLayouts : public ::testing::TestWithParam<LayoutCase> {};

} // namespace

TEST_P(ArrayLayouts, ReadsMatchReferenceInEveryLayout) {
  auto [N1, N2, N3, n1, n2, n3, S] = std::get<0>(GetParam());
  LocalArray a = arrayFor(GetParam());
  std::vector<Domain> domains = {
      Domain::box(N1, N2, N3), Domain(1, N1, 0, N2 - 1, 2, N3), // crosses pages, partial edges
      Domain(N1 - 1, N1, N2 - 1, N2, 0, N3),                    // one line along dim 3
      Domain(0, N1, 1, 2, 3, 4),                                // one line along dim 1
  };
  for (const Domain &d : domains) {
    std::vector<C> buf(static_cast<std::size_t>(d.size()));
    a.array().read(d, buf.data());
    expectLayout(a, d, buf, plainIndex);
    a.array().read_transpose13(d, buf.data());
    expectLayout(a, d, buf, t13Index);
    a.array().read_transpose23(d, buf.data());
    expectLayout(a, d, buf, t23Index);
  }
  EXPECT_EQ(a.sharedCopies() > 0, std::get<2>(GetParam()));
}

TEST_P(ArrayLayouts, TransposedWritesRoundTrip) {
  auto [N1, N2, N3, n1, n2, n3, S] = std::get<0>(GetParam());
  LocalArray a = arrayFor(GetParam());
  Domain all = Domain::box(N1, N2, N3);
  Domain part(1, N1, 1, N2, 0, N3 - 1); // partial pages: read-modify-write
  std::vector<C> buf(static_cast<std::size_t>(all.size()));
  for (const Domain &d : {all, part}) {
    std::vector<C> t(static_cast<std::size_t>(d.size()));
    a.array().read_transpose13(d, t.data());
    a.array().write_transpose13(d, t.data());
    a.array().read(all, buf.data());
    expectLayout(a, all, buf, plainIndex);
    a.array().read_transpose23(d, t.data());
    a.array().write_transpose23(d, t.data());
    a.array().read(all, buf.data());
    expectLayout(a, all, buf, plainIndex);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ArrayLayouts,
    ::testing::Combine(::testing::Values(Shape{8, 8, 8, 4, 4, 4, 3},
                                         Shape{10, 7, 9, 4, 3, 4, 2}, // pages do not divide N
                                         Shape{5, 6, 7, 5, 6, 7, 1},  // one page
                                         Shape{12, 4, 20, 3, 4, 8, 5}),
                       ::testing::Values(TransposeSite::Server, TransposeSite::Client),
                       ::testing::Bool()));

TEST(Array, SlabMapKeepsEveryPageOfASlabOnOneServer) {
  LocalArray a(8, 6, 5, 2, 3, 5, 2, 0, PageLayout::Slabs);
  Domain all = Domain::box(8, 6, 5);
  std::vector<C> buf(static_cast<std::size_t>(all.size()));
  a.array().read(all, buf.data());
  expectLayout(a, all, buf, plainIndex);
  // Planes x1 < 4 (pages i1 = 0, 1) are server 0's: reading them touches
  // no page of server 1.
  Domain slab(0, 4, 0, 6, 0, 5);
  std::uint64_t before = a.server(1).stats().pages_shared;
  a.array().read_transpose23(slab, buf.data());
  expectLayout(a, slab, buf, t23Index);
  EXPECT_EQ(a.server(1).stats().pages_shared, before);
}

TEST(Array, CountsWhatItMovedLocallyAndRemotely) {
  // Memory servers without a cache: every page is shared, copied once.
  LocalArray shared(8, 8, 8, 4, 4, 4, 2);
  Domain plane(1, 2, 0, 8, 0, 8); // a slice of 4 pages
  EXPECT_TRUE(shared.array().SharesPagesOf(plane));
  TransferStats before = shared.array().Transfers();
  std::vector<C> buf(static_cast<std::size_t>(plane.size()));
  shared.array().read(plane, buf.data());
  shared.array().write(plane, buf.data());
  TransferStats moved = shared.array().Transfers().since(before);
  EXPECT_EQ(moved.bytes_read_local, 64 * sizeof(C));
  EXPECT_EQ(moved.bytes_written_local, 64 * sizeof(C));
  EXPECT_EQ(moved.bytes_read_remote + moved.bytes_written_remote, 0u);
  // Caching servers are called: whole pages travel.
  LocalArray called(8, 8, 8, 4, 4, 4, 2, /*cache=*/1);
  EXPECT_FALSE(called.array().SharesPagesOf(plane));
  before = called.array().Transfers();
  called.array().read(plane, buf.data());
  moved = called.array().Transfers().since(before);
  EXPECT_EQ(moved.bytes_read_remote, 4 * 64 * sizeof(C));
  EXPECT_EQ(moved.bytes_read_local, 0u);
  expectLayout(called, plane, buf, plainIndex);
}

TEST(Array, WriteOfSubdomainLeavesRestIntact) {
  LocalArray a(6, 6, 6, 4, 4, 4, 2);
  Domain d(1, 3, 2, 5, 0, 6);
  std::vector<C> ones(static_cast<std::size_t>(d.size()), C(1, 1));
  a.array().write(d, ones.data());
  Domain all = Domain::box(6, 6, 6);
  std::vector<C> buf(static_cast<std::size_t>(all.size()));
  a.array().read(all, buf.data());
  for (int x1 = 0; x1 < 6; ++x1)
    for (int x2 = 0; x2 < 6; ++x2)
      for (int x3 = 0; x3 < 6; ++x3) {
        bool inside = x1 >= 1 && x1 < 3 && x2 >= 2 && x2 < 5;
        ASSERT_EQ(buf[plainIndex(all, x1, x2, x3)], inside ? C(1, 1) : a.at(x1, x2, x3));
      }
}

TEST(Array, ReadIntoServerCacheServesTheNextRead) {
  LocalArray a(8, 8, 8, 4, 4, 4, 2, /*cache=*/4);
  Domain line(0, 4, 4, 8, 0, 8); // pages (0,1,0) and (0,1,1)
  a.array().ReadIntoServerCache(line);
  std::vector<C> buf(static_cast<std::size_t>(line.size()));
  a.array().read(line, buf.data());
  expectLayout(a, line, buf, plainIndex);
  EXPECT_EQ(a.server(0).stats().cache_hits + a.server(1).stats().cache_hits, 2u);
}

TEST(Array, BadDomainsAndConstructionAreClearErrors) {
  LocalArray a(4, 4, 4, 2, 2, 2, 2);
  std::vector<C> buf(1000);
  EXPECT_THROW(a.array().read(Domain(0, 5, 0, 1, 0, 1), buf.data()), std::out_of_range);
  EXPECT_THROW(a.array().write(Domain(0, 0, 0, 1, 0, 1), buf.data()), std::out_of_range);
  ArrayDevice dev(Storage::memory(), 1, 2, 2, 2, 0);
  EXPECT_THROW(Array(Domain::box(4, 4, 4), Domain::box(2, 2, 2), {&dev}, PageMap(2, 2, 2, 2)),
               std::invalid_argument);
  EXPECT_THROW(Array(Domain::box(4, 4, 4), Domain::box(2, 2, 2), {&dev}, PageMap(2, 2, 3, 1)),
               std::invalid_argument);
  EXPECT_THROW(Array(Domain::box(4, 4, 4), Domain::box(2, 2, 2), {nullptr}, PageMap(2, 2, 2, 1)),
               std::invalid_argument);
}

class PageSets : public ::testing::TestWithParam<bool> {};

TEST_P(PageSets, KeepTheInputUntilTheWriteSetIsComplete) {
  PageMap map(2, 2, 2, 3);
  std::vector<std::unique_ptr<ArrayDevice>> devices;
  std::vector<ArrayDevice *> refs;
  int cache = GetParam() ? 0 : 1; // shared pages, or served
  for (int s = 0; s < 3; ++s) {
    devices.push_back(
        std::make_unique<ArrayDevice>(Storage::memory(), 2 * map.PagesOnServer(s), 2, 2, 2, cache));
    refs.push_back(devices.back().get());
  }
  Array a(Domain::box(4, 4, 4), Domain::box(2, 2, 2), refs, map, 2);
  Domain all = Domain::box(4, 4, 4);
  std::vector<C> in(64), out(64);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = C(double(i), 0);
  a.write(all, in.data()); // set 0
  a.SelectPageSets(0, 1);
  std::vector<C> doubled(in);
  for (C &x : doubled)
    x *= 2.0;
  Domain part(0, 3, 0, 4, 0, 4); // partial pages: the rest comes from set 0
  std::vector<C> partBuf(static_cast<std::size_t>(part.size()));
  for (auto x1 = 0; x1 < 3; ++x1)
    for (auto x2 = 0; x2 < 4; ++x2)
      for (auto x3 = 0; x3 < 4; ++x3)
        partBuf[plainIndex(part, x1, x2, x3)] = doubled[plainIndex(all, x1, x2, x3)];
  a.write(part, partBuf.data());
  a.read(all, out.data());
  EXPECT_EQ(out, in); // reads still see set 0
  a.SelectPageSets(1, 1);
  a.read(all, out.data());
  for (int x1 = 0; x1 < 4; ++x1)
    for (int x2 = 0; x2 < 4; ++x2)
      for (int x3 = 0; x3 < 4; ++x3) {
        std::size_t k = plainIndex(all, x1, x2, x3);
        ASSERT_EQ(out[k], x1 < 3 ? doubled[k] : in[k]);
      }
  EXPECT_THROW(a.SelectPageSets(2, 0), std::out_of_range);
  EXPECT_THROW(Array(Domain::box(4, 4, 4), Domain::box(2, 2, 2), refs, map, 0),
               std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(SharedOrServed, PageSets, ::testing::Bool());
