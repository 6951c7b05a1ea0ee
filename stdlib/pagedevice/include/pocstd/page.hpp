//===- pocstd/page.hpp - A page of unstructured data --------------*- C++ -*-===//
///
/// \file
/// Page: n bytes of unstructured data, the unit a PageDevice stores (paper
/// section 2.1). Pages travel between processes as method arguments, so Page
/// provides the poc_write/poc_read serialisation members of docs/runtime.md
/// 3.4: the bytes go as one contiguous block, which the runtime sends out of
/// band (no copy) when it is large.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/aligned_buffer.hpp"

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

namespace poc {
class Writer;
class Reader;
} // namespace poc

namespace pocstd {

/// Largest page a Page accepts from the wire (1 GiB): a corrupt length
/// must give a clear error, not an attempt to allocate exabytes.
inline constexpr std::size_t kMaxPageBytes = std::size_t{1} << 30;

/// n bytes of data in an AlignedBuffer (so that direct I/O can use it as is).
///
/// A page may also lend another holder's storage (borrow): a memory
/// PageDevice's read lends the device's own page instead of copying it,
/// and a page server's reply then sends it from there. A lent page is
/// read-only and shared: the reference count keeps the storage alive as
/// long as any page, or a send in flight, holds it, and the device gives
/// a page it has lent fresh storage before it writes it. The first
/// non-const access to a page's bytes (bytes(), buffer(), resize) copies
/// them into the page's own buffer.
class Page {
public:
  /// An empty page (size 0): what a caller passes to PageDevice::read, which
  /// resizes it, so that the request does not carry a page's worth of data.
  Page() = default;
  /// A page of \p n zero bytes.
  explicit Page(std::size_t n);
  /// A page holding a copy of the \p n bytes at \p data (the paper's
  /// constructor; the page owns its copy).
  Page(std::size_t n, const unsigned char *data);

  std::size_t size() const { return lent_ ? lent_->size() : buffer_.size(); }
  std::byte *bytes() { return buffer().data(); }
  const std::byte *bytes() const { return buffer().data(); }
  /// The page's aligned storage, for device I/O (its own: a lent page is
  /// copied first).
  AlignedBuffer &buffer() {
    if (lent_)
      own();
    return buffer_;
  }
  /// The storage the bytes are in: the page's own or the lent one.
  const AlignedBuffer &buffer() const { return lent_ ? *lent_ : buffer_; }

  /// Makes the page's bytes those of \p storage, read-only and shared with
  /// its other holders (see the class comment); the page's own buffer keeps
  /// its capacity for a later read.
  void borrow(std::shared_ptr<const AlignedBuffer> storage) { lent_ = std::move(storage); }
  /// True while the page's bytes are lent storage.
  bool borrowed() const { return lent_ != nullptr; }

  /// Makes the page \p n bytes long (see AlignedBuffer::resize).
  void resize(std::size_t n);
  /// As resize, leaving the contents unspecified (for a page about to be
  /// filled by a read).
  void resizeForOverwrite(std::size_t n) {
    lent_.reset();
    buffer_.resizeForOverwrite(n);
  }

  /// Serialisation (docs/runtime.md 3.4): the bytes as one block, whose
  /// header carries the size; large pages travel out of band, uncopied (a
  /// lent page with the lender's storage kept until it is sent).
  void poc_write(poc::Writer &w) const;
  /// Throws poc::decode_error for a malformed or over-large page.
  void poc_read(poc::Reader &r);

private:
  /// Copies the lent bytes into the page's own buffer and lets go of the
  /// lent storage.
  void own();

  AlignedBuffer buffer_;
  /// The storage whose bytes the page holds instead of buffer_'s, or null.
  std::shared_ptr<const AlignedBuffer> lent_;
};

/// Thrown for a page whose size or shape does not fit the device or the
/// operation it is given to.
class page_error : public std::invalid_argument {
public:
  explicit page_error(const std::string &what) : std::invalid_argument(what) {}
};

} // namespace pocstd
