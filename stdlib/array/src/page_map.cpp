//===- page_map.cpp - Where each array page is stored ---------------------===//

#include "pocstd/page_map.hpp"

#include <poc/serialize.hpp>

#include <limits>
#include <stdexcept>
#include <string>

namespace pocstd {

PageMap::PageMap(int NP1, int NP2, int NP3, int NumberOfServers, PageLayout layout)
    : np_{NP1, NP2, NP3}, servers_(NumberOfServers), layout_(layout) {
  if (NP1 <= 0 || NP2 <= 0 || NP3 <= 0)
    throw std::invalid_argument("PageMap: the page grid must be positive, got " +
                                std::to_string(NP1) + " x " + std::to_string(NP2) + " x " +
                                std::to_string(NP3));
  if (NumberOfServers <= 0)
    throw std::invalid_argument("PageMap: the number of servers must be "
                                "positive, got " +
                                std::to_string(NumberOfServers));
  std::size_t total = static_cast<std::size_t>(NP1) * NP2 * NP3;
  if (total > std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("PageMap: " + std::to_string(total) +
                                " pages exceed the map's 2^32 page limit");
  // "First free index" in row-major order: the running count per server.
  // A table (4 bytes per page) keeps PageAddress O(1); the paper allows a
  // precomputed map.
  index_.resize(total);
  perServer_.assign(static_cast<std::size_t>(NumberOfServers), 0);
  std::size_t k = 0;
  for (int i1 = 0; i1 < NP1; ++i1)
    for (int i2 = 0; i2 < NP2; ++i2)
      for (int i3 = 0; i3 < NP3; ++i3) {
        int server = serverOf(i1, i2, i3);
        index_[k++] = static_cast<std::uint32_t>(perServer_[server]++);
      }
}

void PageMap::poc_write(poc::Writer &w) const {
  w.write(np_[0]);
  w.write(np_[1]);
  w.write(np_[2]);
  w.write(servers_);
  w.write(static_cast<int>(layout_));
}

void PageMap::poc_read(poc::Reader &r) {
  int np1 = r.read<int>(), np2 = r.read<int>(), np3 = r.read<int>(), servers = r.read<int>();
  int layout = r.read<int>();
  if (layout != static_cast<int>(PageLayout::Circulant) &&
      layout != static_cast<int>(PageLayout::Slabs))
    r.fail("PageMap: unknown layout " + std::to_string(layout));
  try {
    *this = PageMap(np1, np2, np3, servers, static_cast<PageLayout>(layout));
  } catch (const std::invalid_argument &e) {
    r.fail(e.what());
  }
}

address PageMap::PageAddress(int i1, int i2, int i3) const {
  if (i1 < 0 || i1 >= np_[0] || i2 < 0 || i2 >= np_[1] || i3 < 0 || i3 >= np_[2])
    throw std::out_of_range("PageMap: page (" + std::to_string(i1) + ", " + std::to_string(i2) +
                            ", " + std::to_string(i3) + ") is outside the " +
                            std::to_string(np_[0]) + " x " + std::to_string(np_[1]) + " x " +
                            std::to_string(np_[2]) + " page grid");
  std::size_t k = (static_cast<std::size_t>(i1) * np_[1] + i2) * np_[2] + i3;
  return address{serverOf(i1, i2, i3), index_[k]};
}

int PageMap::serverOf(int i1, int i2, int i3) const {
  if (layout_ == PageLayout::Slabs)
    // Slab s is [floor(s NP1 / S), floor((s+1) NP1 / S)): i1 lies in the
    // last slab that begins at or before it.
    return static_cast<int>((static_cast<long long>(i1 + 1) * servers_ - 1) / np_[0]);
  return (i1 + i2 + i3) % servers_;
}

std::size_t PageMap::PagesOnServer(int server) const {
  if (server < 0 || server >= servers_)
    throw std::out_of_range("PageMap: no server " + std::to_string(server) + " (the map has " +
                            std::to_string(servers_) + ")");
  return perServer_[static_cast<std::size_t>(server)];
}

} // namespace pocstd
