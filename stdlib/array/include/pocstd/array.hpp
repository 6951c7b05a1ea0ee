//===- pocstd/array.hpp - A 3D complex array on page servers ------*- C++ -*-===//
///
/// \file
/// Array (paper section 4.1): an N1 x N2 x N3 complex double array stored as
/// n1 x n2 x n3 pages on S page servers (ArrayDevice processes), placed by a
/// PageMap. A client process reads and writes subdomains into its own memory
/// buffer; the transposing variants deliver the subdomain with two dimensions
/// swapped, the transpose itself done by the page servers. The Array object is
/// only a description (domains, map and the servers' references), so it is
/// cheap to pass to other processes, which then all use the same servers.
///
/// Pages at the upper edge of a dimension that N does not fill are stored
/// whole; the part outside the array is padding that reads as zero.
///
/// Page transfers are remote calls when the servers are remote processes (the
/// writes and ReadIntoServerCache are started, i.e. asynchronous), and
/// ordinary calls when they are local objects. A memory server without a
/// cache that lives in the client's own OS process (a process on the same
/// host, or a local object) is not called at all: the client copies
/// straight between its buffer and the server's pages (LocalPages, one copy
/// instead of four), transposing on the way.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/array_device.hpp"
#include "pocstd/domain.hpp"
#include "pocstd/local_pages.hpp"
#include "pocstd/page_map.hpp"
#include "pocstd/transfer_stats.hpp"

#include <poc/future.hpp>

#include <complex>
#include <cstddef>
#include <vector>

namespace pocstd {

/// Where the transposing reads and writes transpose a page.
enum class TransposeSite : int {
  Server = 0, ///< ArrayPageDevice::read_transpose13/23 etc., close to the data
  Client = 1, ///< plain page transfers, transposed while copied to the buffer
};

/// A complex double array whose pages live on page servers.
class Array {
public:
  using Element = std::complex<double>;

  /// An array with no servers (what deserialisation starts from).
  Array() = default;
  /// The array \p ArrayDomain (which must start at 0) in pages of the shape
  /// of \p PageDomain, stored on \p page_server as \p pagemap says. Throws
  /// std::invalid_argument unless the map's page grid covers the array
  /// exactly, has one server per entry of \p page_server, and no server is
  /// null.
  Array(const Domain &ArrayDomain, const Domain &PageDomain, std::vector<ArrayDevice *> page_server,
        const PageMap &pagemap);
  /// As above, with \p PageSets copies of every page on the servers (each
  /// server then needs PageSets * pagemap.PagesOnServer(s) pages; copy k of
  /// a page is at its map index + k * PagesOnServer). Reads use one copy and
  /// writes another (SelectPageSets): a computation that reads copy 0 and
  /// writes copy 1 leaves its input intact until it has finished, so it can
  /// be restarted after a crash. Throws std::invalid_argument unless
  /// \p PageSets >= 1.
  Array(const Domain &ArrayDomain, const Domain &PageDomain, std::vector<ArrayDevice *> page_server,
        const PageMap &pagemap, int PageSets);

  /// Copies the subdomain \p d into \p buffer, row-major over d (x3 fastest).
  /// Throws std::out_of_range unless d lies inside the array.
  void read(const Domain &d, Element *buffer);
  /// Stores \p buffer (laid out as for read) into the subdomain \p d.
  void write(const Domain &d, const Element *buffer);
  /// As read, with dimensions 1 and 3 swapped: \p buffer is e3 x e2 x e1
  /// (x1 fastest), e_k being d's extents.
  void read_transpose13(const Domain &d, Element *buffer);
  void write_transpose13(const Domain &d, const Element *buffer);
  /// As read, with dimensions 2 and 3 swapped: \p buffer is e1 x e3 x e2.
  void read_transpose23(const Domain &d, Element *buffer);
  void write_transpose23(const Domain &d, const Element *buffer);
  /// Reads (and ReadIntoServerCache) use page copy \p read from now on, writes
  /// copy \p write. A partial-page write takes the rest of the page from the
  /// read copy. Throws std::out_of_range for a copy the array does not have.
  void SelectPageSets(int read, int write);
  int PageSets() const { return pageSets_; }
  /// Where read_transpose13/23 and write_transpose13/23 transpose pages
  /// (paper 4.1: "either on the client or on the servers"); Server by
  /// default. The client saves the servers a pass over each page.
  void SetTransposeSite(TransposeSite site) { transposeSite_ = site; }
  TransposeSite GetTransposeSite() const { return transposeSite_; }
  int ReadSet() const { return readSet_; }
  int WriteSet() const { return writeSet_; }

  /// Tells every server holding a page of \p d to load it into its cache
  /// (paper section 4.3), without waiting.
  void ReadIntoServerCache(const Domain &d);
  /// Starts PageDevice::Flush on every server, without waiting: once
  /// poc::sync() has returned, every page this process wrote through the
  /// array before the call is durable (each server serves a caller's
  /// requests in order, so the flush follows the caller's writes).
  void Flush();

  const Domain &ArrayDomain() const { return arrayDomain_; }
  const Domain &PageDomain() const { return pageDomain_; }
  int NumberOfServers() const { return static_cast<int>(page_server_.size()); }
  ArrayDevice *PageServer(int i) const { return page_server_.at(static_cast<std::size_t>(i)); }
  const PageMap &pagemap() const { return pagemap_; }
  /// The domain of page (i1, i2, i3), clipped to the array.
  Domain PageBox(int i1, int i2, int i3) const;
  /// True when every page of \p d is on a server whose memory this client
  /// shares (LocalPages): reading and writing d then copies nothing but d,
  /// however thin a slice of its pages d is.
  bool SharesPagesOf(const Domain &d);
  /// What this client moved and where its time went (not part of the
  /// description: a copy in another process counts its own).
  const TransferStats &Transfers() const { return transfers_; }

  /// Serialisation: the description and the servers' references.
  void poc_write(poc::Writer &w) const;
  /// Throws poc::decode_error for an inconsistent description.
  void poc_read(poc::Reader &r);

private:
  /// Buffer layout: which array dimension each buffer dimension is.
  enum class Layout { Plain, Transpose13, Transpose23 };
  void readDomain(Layout layout, const Domain &d, Element *buffer);
  void writeDomain(Layout layout, const Domain &d, const Element *buffer);
  /// Requests page \p a in \p layout; the future's wait fills \p into.
  poc::future<void> startFetch(Layout layout, const address &a, ArrayPage &into);
  /// Fetches page \p a into scratch_ in \p layout.
  void fetch(Layout layout, const address &a);
  void checkInside(const Domain &d, const char *operation) const;
  /// Where copy \p set of page (i1, i2, i3) is stored.
  address stored(std::int64_t i1, std::int64_t i2, std::int64_t i3, int set) const;

  Domain arrayDomain_;
  Domain pageDomain_;
  std::vector<ArrayDevice *> page_server_;
  PageMap pagemap_;
  int pageSets_ = 1;
  int readSet_ = 0;
  int writeSet_ = 0;
  TransposeSite transposeSite_ = TransposeSite::Server;
  /// The direct access to server \p server's pages (empty unless it is a
  /// memory server in this OS process), found at the first transfer.
  const LocalPages &localPages(int server);

  /// Bytes of remote pages a read requests ahead of the one it copies.
  static constexpr std::size_t kReadAheadBytes = std::size_t{16} << 20;
  /// Bytes of started writes a client has in flight at most: the runtime
  /// keeps a copy of each until its server takes it, so a client that
  /// writes faster than its servers store (out of core) would otherwise
  /// hold up to a pass's worth of pages (measured: 1.4-1.9 GiB per rank in
  /// fft3d's 8 and 16 GiB runs; 0.28 GiB with this bound, as fast).
  static constexpr std::size_t kWriteBehindBytes = std::size_t{256} << 20;
  /// Waits until every server this client wrote to has stored the writes
  /// (one synchronous call each).
  void confirmWrites();
  /// Reused page, so that a line of transfers allocates once.
  ArrayPage scratch_;
  /// Reused pages that remote reads arrive in (a window of
  /// kReadAheadBytes, at least two pages).
  std::vector<ArrayPage> readAhead_;
  /// Per server, whether this client started writes to it since
  /// confirmWrites; and their bytes in all.
  std::vector<bool> unconfirmed_;
  std::size_t unconfirmedBytes_ = 0;
  /// Per server, found by localPages (not part of the description: a copy
  /// in another process finds its own).
  std::vector<LocalPages> local_;
  TransferStats transfers_;
};

} // namespace pocstd
