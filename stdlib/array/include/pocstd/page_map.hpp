//===- pocstd/page_map.hpp - Where each array page is stored ------*- C++ -*-===//
///
/// \file
/// PageMap (paper sections 2.3 and 4.1): translates a page's grid position
/// (i1, i2, i3) into a storage address {server, page index}. Two layouts:
/// - circulant (the paper's): page (i1, i2, i3) goes to server
///   (i1 + i2 + i3) % S, which spreads every page line, along any
///   dimension, evenly over the servers;
/// - slabs: server s holds the pages with i1 in [s NP1 / S, (s+1) NP1 / S),
///   so a client working on a slab of dimension 1 (fft3d's second and third
///   passes) finds all of it on one server, which it can share a host with
///   (pocstd::LocalPages); lines along dimension 1 cross every server.
/// Within a server pages take the first free index in row-major page order,
/// so server s holds PagesOnServer(s) pages densely.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace poc {
class Writer;
class Reader;
} // namespace poc

namespace pocstd {

/// A storage address (paper section 2.3).
struct address {
  int server_id = 0;
  std::size_t page_index = 0;
};

/// How a PageMap spreads pages over servers (see above).
enum class PageLayout : int { Circulant = 0, Slabs = 1 };

/// The map of an NP1 x NP2 x NP3 page grid onto S servers.
class PageMap {
public:
  /// An empty map (no pages); what deserialisation starts from.
  PageMap() = default;
  /// The map of an \p NP1 x \p NP2 x \p NP3 page grid onto
  /// \p NumberOfServers servers in \p layout. Throws std::invalid_argument
  /// for non-positive counts or a grid of more than 2^32 pages.
  PageMap(int NP1, int NP2, int NP3, int NumberOfServers,
          PageLayout layout = PageLayout::Circulant);

  /// The address of page (i1, i2, i3); throws std::out_of_range outside the
  /// grid.
  address PageAddress(int i1, int i2, int i3) const;
  /// How many pages server \p server stores (the size its device needs).
  std::size_t PagesOnServer(int server) const;
  int NumberOfServers() const { return servers_; }
  PageLayout layout() const { return layout_; }
  /// Pages along dimension \p d.
  int pages(int d) const { return np_[d]; }

  /// Serialisation: only the grid, the server count and the layout travel;
  /// the index table is recomputed on arrival.
  void poc_write(poc::Writer &w) const;
  /// Throws poc::decode_error for a non-positive grid or server count, or
  /// an unknown layout.
  void poc_read(poc::Reader &r);

private:
  /// The server of page (i1, i2, i3), by the layout's rule.
  int serverOf(int i1, int i2, int i3) const;

  std::array<int, 3> np_{};
  int servers_ = 0;
  PageLayout layout_ = PageLayout::Circulant;
  /// Page index within its server, per page in row-major grid order.
  std::vector<std::uint32_t> index_;
  std::vector<std::size_t> perServer_;
};

} // namespace pocstd
