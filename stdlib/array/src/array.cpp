//===- array.cpp - A 3D complex array on page servers ---------------------===//
///
/// Process-oriented C++: the calls through page_server_ are remote calls
/// when the servers are processes, and `start` makes the writes and the cache
/// requests asynchronous (paper sections 4.3 and 5.3).
///
//===----------------------------------------------------------------------===//

#include "pocstd/array.hpp"

#include "pocstd/transpose.hpp"

#include <poc/serialize.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

namespace pocstd {

namespace {
using Index3 = std::array<std::int64_t, 3>;

/// Buffer dimension k holds array dimension kPerm[layout][k].
constexpr int kPerm[3][3] = {{0, 1, 2}, {2, 1, 0}, {0, 2, 1}};

/// Copies the box of \p extent elements from the row-major array \p src
/// (shape \p srcShape, box at \p srcAt) to \p dst (shape \p dstShape, box at
/// \p dstAt). The last dimension is contiguous on both sides.
void copyBox(const std::complex<double> *src, const Index3 &srcShape, const Index3 &srcAt,
             std::complex<double> *dst, const Index3 &dstShape, const Index3 &dstAt,
             const Index3 &extent) {
  std::size_t run = static_cast<std::size_t>(extent[2]) * sizeof(*src);
  for (std::int64_t a = 0; a < extent[0]; ++a)
    for (std::int64_t b = 0; b < extent[1]; ++b) {
      std::int64_t s = ((srcAt[0] + a) * srcShape[1] + srcAt[1] + b) * srcShape[2] + srcAt[2];
      std::int64_t t = ((dstAt[0] + a) * dstShape[1] + dstAt[1] + b) * dstShape[2] + dstAt[2];
      std::memcpy(dst + t, src + s, run);
    }
}

std::int64_t pagesAlong(std::int64_t n, std::int64_t page) { return (n + page - 1) / page; }

/// Adds the seconds of its lifetime to a counter of TransferStats.
class Timed {
public:
  explicit Timed(double &seconds) : seconds_(seconds) {}
  ~Timed() {
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  Timed(const Timed &) = delete;
  Timed &operator=(const Timed &) = delete;

private:
  double &seconds_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

std::uint64_t bytesOf(const Domain &d) {
  return static_cast<std::uint64_t>(d.size()) * sizeof(std::complex<double>);
}

/// Calls \p visit(i1, i2, i3) for the grid position of every page of shape
/// \p page that the domain \p d touches, in row-major order.
template <class Visit> void forEachPage(const Domain &page, const Domain &d, Visit visit) {
  Index3 first, last;
  for (int k = 0; k < 3; ++k) {
    first[k] = d.lo[k] / page.extent(k);
    last[k] = (d.hi[k] - 1) / page.extent(k);
  }
  for (auto i1 = first[0]; i1 <= last[0]; ++i1)
    for (auto i2 = first[1]; i2 <= last[1]; ++i2)
      for (auto i3 = first[2]; i3 <= last[2]; ++i3)
        visit(i1, i2, i3);
}

/// The geometry of one page's share of a transfer: the page's box, the part
/// of it inside the transferred domain d, and the extents involved.
struct PagePart {
  Index3 n;   ///< page extents (the page is stored n0 x n1 x n2, plain)
  Index3 e;   ///< d's extents
  Index3 s;   ///< part's offset within the page
  Index3 t;   ///< part's offset within d
  Index3 ext; ///< part's extents
};

PagePart pagePart(const Domain &page, const Domain &box, const Domain &part, const Domain &d) {
  PagePart g;
  for (int k = 0; k < 3; ++k) {
    g.n[k] = page.extent(k);
    g.e[k] = d.extent(k);
    g.s[k] = part.lo[k] - box.lo[k];
    g.t[k] = part.lo[k] - d.lo[k];
    g.ext[k] = part.extent(k);
  }
  return g;
}

/// Client-side transposing gather: the part of a plain page into a buffer
/// laid out e2 x e1 x e0 (transpose13) or e0 x e2 x e1 (transpose23).
void gather(bool t13, const std::complex<double> *page, std::complex<double> *buf,
            const PagePart &g) {
  if (t13) {
    for (std::int64_t x1 = 0; x1 < g.ext[1]; ++x1)
      transposePlane(page + (g.s[0] * g.n[1] + g.s[1] + x1) * g.n[2] + g.s[2],
                     static_cast<std::size_t>(g.n[1] * g.n[2]),
                     buf + (g.t[2] * g.e[1] + g.t[1] + x1) * g.e[0] + g.t[0],
                     static_cast<std::size_t>(g.e[1] * g.e[0]), static_cast<std::size_t>(g.ext[0]),
                     static_cast<std::size_t>(g.ext[2]));
  } else {
    for (std::int64_t x0 = 0; x0 < g.ext[0]; ++x0)
      transposePlane(page + ((g.s[0] + x0) * g.n[1] + g.s[1]) * g.n[2] + g.s[2],
                     static_cast<std::size_t>(g.n[2]),
                     buf + ((g.t[0] + x0) * g.e[2] + g.t[2]) * g.e[1] + g.t[1],
                     static_cast<std::size_t>(g.e[1]), static_cast<std::size_t>(g.ext[1]),
                     static_cast<std::size_t>(g.ext[2]));
  }
}

/// The inverse of gather: from the transposed buffer into a plain page.
void scatter(bool t13, const std::complex<double> *buf, std::complex<double> *page,
             const PagePart &g) {
  if (t13) {
    for (std::int64_t x1 = 0; x1 < g.ext[1]; ++x1)
      transposePlane(buf + (g.t[2] * g.e[1] + g.t[1] + x1) * g.e[0] + g.t[0],
                     static_cast<std::size_t>(g.e[1] * g.e[0]),
                     page + (g.s[0] * g.n[1] + g.s[1] + x1) * g.n[2] + g.s[2],
                     static_cast<std::size_t>(g.n[1] * g.n[2]), static_cast<std::size_t>(g.ext[2]),
                     static_cast<std::size_t>(g.ext[0]));
  } else {
    for (std::int64_t x0 = 0; x0 < g.ext[0]; ++x0)
      transposePlane(buf + ((g.t[0] + x0) * g.e[2] + g.t[2]) * g.e[1] + g.t[1],
                     static_cast<std::size_t>(g.e[1]),
                     page + ((g.s[0] + x0) * g.n[1] + g.s[1]) * g.n[2] + g.s[2],
                     static_cast<std::size_t>(g.n[2]), static_cast<std::size_t>(g.ext[2]),
                     static_cast<std::size_t>(g.ext[1]));
  }
}
} // namespace

Array::Array(const Domain &ArrayDomain, const Domain &PageDomain,
             std::vector<ArrayDevice *> page_server, const PageMap &pagemap)
    : Array(ArrayDomain, PageDomain, std::move(page_server), pagemap, 1) {}

Array::Array(const Domain &ArrayDomain, const Domain &PageDomain,
             std::vector<ArrayDevice *> page_server, const PageMap &pagemap, int PageSets)
    : arrayDomain_(ArrayDomain), pageDomain_(PageDomain), page_server_(std::move(page_server)),
      pagemap_(pagemap), pageSets_(PageSets), unconfirmed_(page_server_.size(), false) {
  if (PageSets < 1)
    throw std::invalid_argument("Array: the number of page sets must be at least 1, got " +
                                std::to_string(PageSets));
  for (int d = 0; d < 3; ++d) {
    if (arrayDomain_.lo[d] != 0 || arrayDomain_.extent(d) <= 0)
      throw std::invalid_argument("Array: the array domain must start at 0 and "
                                  "be non-empty, got " +
                                  arrayDomain_.str());
    if (pageDomain_.lo[d] != 0 || pageDomain_.extent(d) <= 0)
      throw std::invalid_argument("Array: the page domain must start at 0 and "
                                  "be non-empty, got " +
                                  pageDomain_.str());
    if (pagemap_.pages(d) != pagesAlong(arrayDomain_.extent(d), pageDomain_.extent(d)))
      throw std::invalid_argument("Array: the page map's grid does not cover a " +
                                  arrayDomain_.str() + " array in " + pageDomain_.str() + " pages");
  }
  if (static_cast<std::size_t>(pagemap_.NumberOfServers()) != page_server_.size())
    throw std::invalid_argument("Array: the page map expects " +
                                std::to_string(pagemap_.NumberOfServers()) + " servers, got " +
                                std::to_string(page_server_.size()));
  for (ArrayDevice *server : page_server_)
    if (server == nullptr)
      throw std::invalid_argument("Array: a page server reference is null");
}

void Array::poc_write(poc::Writer &w) const {
  arrayDomain_.poc_write(w);
  pageDomain_.poc_write(w);
  w.write(page_server_);
  pagemap_.poc_write(w);
  w.write(pageSets_);
  w.write(readSet_);
  w.write(writeSet_);
  w.write(static_cast<int>(transposeSite_));
}

void Array::poc_read(poc::Reader &r) {
  Domain array, page;
  std::vector<ArrayDevice *> servers;
  PageMap map;
  array.poc_read(r);
  page.poc_read(r);
  r.read(servers);
  map.poc_read(r);
  int sets = r.read<int>(), readSet = r.read<int>(), writeSet = r.read<int>();
  int site = r.read<int>();
  if (site != static_cast<int>(TransposeSite::Server) &&
      site != static_cast<int>(TransposeSite::Client))
    r.fail("Array: unknown transpose site " + std::to_string(site));
  try {
    Array copy(array, page, std::move(servers), map, sets);
    copy.SelectPageSets(readSet, writeSet);
    copy.transposeSite_ = static_cast<TransposeSite>(site);
    *this = std::move(copy);
  } catch (const std::logic_error &e) {
    r.fail(e.what());
  }
}

void Array::SelectPageSets(int read, int write) {
  if (read < 0 || read >= pageSets_ || write < 0 || write >= pageSets_)
    throw std::out_of_range("Array::SelectPageSets(" + std::to_string(read) + ", " +
                            std::to_string(write) + "): the array has " +
                            std::to_string(pageSets_) + " page set(s)");
  readSet_ = read;
  writeSet_ = write;
}

address Array::stored(std::int64_t i1, std::int64_t i2, std::int64_t i3, int set) const {
  address a =
      pagemap_.PageAddress(static_cast<int>(i1), static_cast<int>(i2), static_cast<int>(i3));
  a.page_index += static_cast<std::size_t>(set) * pagemap_.PagesOnServer(a.server_id);
  return a;
}

Domain Array::PageBox(int i1, int i2, int i3) const {
  Index3 i{i1, i2, i3};
  Domain box;
  for (int d = 0; d < 3; ++d) {
    box.lo[d] = i[d] * pageDomain_.extent(d);
    box.hi[d] = std::min(box.lo[d] + pageDomain_.extent(d), arrayDomain_.hi[d]);
  }
  return box;
}

void Array::checkInside(const Domain &d, const char *operation) const {
  if (d.empty() || !arrayDomain_.contains(d))
    throw std::out_of_range(std::string("Array::") + operation + ": domain " + d.str() +
                            " is empty or not inside the array " + arrayDomain_.str());
}

poc::future<void> Array::startFetch(Layout layout, const address &a, ArrayPage &into) {
  ArrayDevice *server = page_server_[static_cast<std::size_t>(a.server_id)];
  // An empty page: the request then carries only the index, the reply the
  // page (its storage is kept, so the reply fills it without allocating).
  into.clear();
  if (layout == Layout::Transpose13) {
    auto arriving = start server->read_transpose13(into, a.page_index);
    return arriving;
  }
  if (layout == Layout::Transpose23) {
    auto arriving = start server->read_transpose23(into, a.page_index);
    return arriving;
  }
  auto arriving = start server->read(into, a.page_index);
  return arriving;
}

void Array::fetch(Layout layout, const address &a) {
  startFetch(layout, a, scratch_).get();
  if (layout == Layout::Plain)
    scratch_.setShape(static_cast<int>(pageDomain_.extent(0)),
                      static_cast<int>(pageDomain_.extent(1)),
                      static_cast<int>(pageDomain_.extent(2)));
}

const LocalPages &Array::localPages(int server) {
  if (local_.size() != page_server_.size()) {
    local_.clear();
    for (ArrayDevice *s : page_server_)
      local_.push_back(LocalPages::of(s));
  }
  return local_[static_cast<std::size_t>(server)];
}

void Array::readDomain(Layout layout, const Domain &d, Element *buffer) {
  const int *perm = kPerm[static_cast<int>(layout)];
  Index3 bufShape, pageShape;
  for (int k = 0; k < 3; ++k) {
    bufShape[k] = d.extent(perm[k]);
    pageShape[k] = pageDomain_.extent(perm[k]);
  }
  // The pages of d: those shared by servers in this OS process, and those
  // fetched from the others.
  struct PageRead {
    Domain box, part;
    address at;
  };
  std::vector<PageRead> shared, fetched;
  forEachPage(pageDomain_, d, [&](std::int64_t i1, std::int64_t i2, std::int64_t i3) {
    Domain box = PageBox(static_cast<int>(i1), static_cast<int>(i2), static_cast<int>(i3));
    address at = stored(i1, i2, i3, readSet_);
    (localPages(at.server_id) ? shared : fetched).push_back({box, box.intersect(d), at});
  });
  // A fetched page is plain for a client-side transpose; a shared page is
  // always plain, and transposed on the way like the former.
  bool fetchPlain = layout == Layout::Plain || transposeSite_ == TransposeSite::Client;
  auto copyOut = [&](const PageRead &r, const Element *page, bool plainPage) {
    if (layout != Layout::Plain && plainPage) {
      gather(layout == Layout::Transpose13, page, buffer, pagePart(pageDomain_, r.box, r.part, d));
      return;
    }
    Index3 srcAt, dstAt, extent;
    for (int k = 0; k < 3; ++k) {
      srcAt[k] = r.part.lo[perm[k]] - r.box.lo[perm[k]];
      dstAt[k] = r.part.lo[perm[k]] - d.lo[perm[k]];
      extent[k] = r.part.extent(perm[k]);
    }
    copyBox(page, pageShape, srcAt, buffer, bufShape, dstAt, extent);
  };
  // Fetched pages are requested a window of kReadAheadBytes ahead, the
  // first ones before the shared pages are copied, so that the servers read
  // and send while this client copies. Fetched page k arrives in slot
  // k % window, free again once page k - window has been copied out.
  std::size_t pageBytes = static_cast<std::size_t>(pageDomain_.size()) * sizeof(Element);
  std::size_t window =
      std::min(fetched.size(), std::max<std::size_t>(2, kReadAheadBytes / pageBytes));
  if (readAhead_.size() < window)
    readAhead_.resize(window);
  std::vector<poc::future<void>> arriving(window);
  auto request = [&](std::size_t k) {
    Timed waiting(transfers_.wait_seconds);
    arriving[k % window] =
        startFetch(fetchPlain ? Layout::Plain : layout, fetched[k].at, readAhead_[k % window]);
  };
  for (std::size_t k = 0; k < window; ++k)
    request(k);
  for (const PageRead &r : shared) {
    Timed copying(transfers_.copy_seconds);
    copyOut(r, reinterpret_cast<const Element *>(localPages(r.at.server_id).page(r.at.page_index)),
            true);
    transfers_.bytes_read_local += bytesOf(r.part);
  }
  for (std::size_t k = 0; k < fetched.size(); ++k) {
    {
      Timed waiting(transfers_.wait_seconds);
      arriving[k % window].get();
    }
    {
      Timed copying(transfers_.copy_seconds);
      copyOut(fetched[k], readAhead_[k % window].data(), fetchPlain);
    }
    transfers_.bytes_read_remote += pageBytes;
    if (k + window < fetched.size())
      request(k + window);
  }
}

void Array::writeDomain(Layout layout, const Domain &d, const Element *buffer) {
  const int *perm = kPerm[static_cast<int>(layout)];
  Index3 bufShape, transposedShape;
  for (int k = 0; k < 3; ++k) {
    bufShape[k] = d.extent(perm[k]);
    transposedShape[k] = pageDomain_.extent(perm[k]);
  }
  const Index3 plainShape{pageDomain_.extent(0), pageDomain_.extent(1), pageDomain_.extent(2)};
  const std::size_t pageBytes = static_cast<std::size_t>(pageDomain_.size()) * sizeof(Element);
  forEachPage(pageDomain_, d, [&](std::int64_t i1, std::int64_t i2, std::int64_t i3) {
    int p1 = static_cast<int>(i1), p2 = static_cast<int>(i2), p3 = static_cast<int>(i3);
    Domain box = PageBox(p1, p2, p3);
    Domain part = box.intersect(d);
    address a = stored(i1, i2, i3, writeSet_);
    bool whole = part == box && box.size() == pageDomain_.size();
    // Whole page: every element is overwritten. All of the page inside
    // the array: the rest is padding, stored as zeros. Otherwise the
    // rest of the page comes from the read copy.
    const LocalPages &local = localPages(a.server_id);
    // Shared pages and pages for a client-side transpose are plain.
    bool plainPage =
        layout == Layout::Plain || transposeSite_ == TransposeSite::Client || bool(local);
    Layout pageLayout = plainPage ? Layout::Plain : layout;
    const Index3 &pageShape = plainPage ? plainShape : transposedShape;
    Element *page;
    if (local) {
      page = reinterpret_cast<Element *>(local.page(a.page_index));
      Timed copying(transfers_.copy_seconds);
      if (part == box && !whole)
        std::memset(static_cast<void *>(page), 0, pageBytes);
      else if (part != box && readSet_ != writeSet_)
        std::memcpy(static_cast<void *>(page), local.page(stored(i1, i2, i3, readSet_).page_index),
                    pageBytes);
    } else {
      int s1 = static_cast<int>(pageShape[0]), s2 = static_cast<int>(pageShape[1]),
          s3 = static_cast<int>(pageShape[2]);
      if (whole)
        scratch_.assignForOverwrite(s1, s2, s3);
      else if (part == box)
        scratch_.assign(s1, s2, s3);
      else {
        Timed waiting(transfers_.wait_seconds);
        fetch(pageLayout, stored(i1, i2, i3, readSet_));
      }
      page = scratch_.data();
    }
    {
      Timed copying(transfers_.copy_seconds);
      if (layout != Layout::Plain && plainPage) {
        scatter(layout == Layout::Transpose13, buffer, page, pagePart(pageDomain_, box, part, d));
      } else {
        Index3 srcAt, dstAt, extent;
        for (int k = 0; k < 3; ++k) {
          srcAt[k] = part.lo[perm[k]] - d.lo[perm[k]];
          dstAt[k] = part.lo[perm[k]] - box.lo[perm[k]];
          extent[k] = part.extent(perm[k]);
        }
        copyBox(buffer, bufShape, srcAt, page, pageShape, dstAt, extent);
      }
    }
    if (local) {
      transfers_.bytes_written_local += bytesOf(part);
      return;
    }
    ArrayDevice *server = page_server_[static_cast<std::size_t>(a.server_id)];
    Timed waiting(transfers_.wait_seconds);
    // Arguments are copied when a call starts, so scratch_ may be reused
    // at once.
    switch (pageLayout) {
    case Layout::Plain:
      start server->write(scratch_, a.page_index);
      break;
    case Layout::Transpose13:
      start server->write_transpose13(scratch_, a.page_index);
      break;
    case Layout::Transpose23:
      start server->write_transpose23(scratch_, a.page_index);
      break;
    }
    transfers_.bytes_written_remote += pageBytes;
    unconfirmed_[static_cast<std::size_t>(a.server_id)] = true;
    if ((unconfirmedBytes_ += pageBytes) > kWriteBehindBytes)
      confirmWrites();
  });
}

void Array::confirmWrites() {
  // A server serves a client's requests in order, so when a synchronous
  // call returns, this client's earlier writes to it are stored (their
  // errors still go to poc::sync(), as a started call's do).
  for (std::size_t s = 0; s < page_server_.size(); ++s)
    if (unconfirmed_[s]) {
      page_server_[s]->NumberOfPages();
      unconfirmed_[s] = false;
    }
  unconfirmedBytes_ = 0;
}

void Array::read(const Domain &d, Element *buffer) {
  checkInside(d, "read");
  readDomain(Layout::Plain, d, buffer);
}
void Array::write(const Domain &d, const Element *buffer) {
  checkInside(d, "write");
  writeDomain(Layout::Plain, d, buffer);
}
void Array::read_transpose13(const Domain &d, Element *buffer) {
  checkInside(d, "read_transpose13");
  readDomain(Layout::Transpose13, d, buffer);
}
void Array::write_transpose13(const Domain &d, const Element *buffer) {
  checkInside(d, "write_transpose13");
  writeDomain(Layout::Transpose13, d, buffer);
}
void Array::read_transpose23(const Domain &d, Element *buffer) {
  checkInside(d, "read_transpose23");
  readDomain(Layout::Transpose23, d, buffer);
}
void Array::write_transpose23(const Domain &d, const Element *buffer) {
  checkInside(d, "write_transpose23");
  writeDomain(Layout::Transpose23, d, buffer);
}

bool Array::SharesPagesOf(const Domain &d) {
  checkInside(d, "SharesPagesOf");
  bool shared = true;
  forEachPage(pageDomain_, d, [&](std::int64_t i1, std::int64_t i2, std::int64_t i3) {
    // (Both page sets of a page are on the same server.)
    shared = shared && bool(localPages(stored(i1, i2, i3, readSet_).server_id));
  });
  return shared;
}

void Array::ReadIntoServerCache(const Domain &d) {
  checkInside(d, "ReadIntoServerCache");
  forEachPage(pageDomain_, d, [&](std::int64_t i1, std::int64_t i2, std::int64_t i3) {
    address a = stored(i1, i2, i3, readSet_);
    // Shared pages are read from memory: there is nothing to prefetch.
    if (!localPages(a.server_id))
      start page_server_[static_cast<std::size_t>(a.server_id)]->ReadIntoCache(a.page_index);
  });
}

void Array::Flush() {
  for (ArrayDevice *server : page_server_)
    start server->Flush();
}

} // namespace pocstd
