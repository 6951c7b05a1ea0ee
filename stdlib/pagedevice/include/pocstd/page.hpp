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

  std::size_t size() const { return buffer_.size(); }
  std::byte *bytes() { return buffer_.data(); }
  const std::byte *bytes() const { return buffer_.data(); }
  /// The page's aligned storage, for device I/O.
  AlignedBuffer &buffer() { return buffer_; }
  const AlignedBuffer &buffer() const { return buffer_; }

  /// Makes the page \p n bytes long (see AlignedBuffer::resize).
  void resize(std::size_t n);
  /// As resize, leaving the contents unspecified (for a page about to be
  /// filled by a read).
  void resizeForOverwrite(std::size_t n) { buffer_.resizeForOverwrite(n); }

  /// Serialisation (docs/runtime.md 3.4): the bytes as one block, whose
  /// header carries the size; large pages travel out of band, uncopied.
  void poc_write(poc::Writer &w) const;
  /// Throws poc::decode_error for a malformed or over-large page.
  void poc_read(poc::Reader &r);

private:
  AlignedBuffer buffer_;
};

/// Thrown for a page whose size or shape does not fit the device or the
/// operation it is given to.
class page_error : public std::invalid_argument {
public:
  explicit page_error(const std::string &what) : std::invalid_argument(what) {}
};

} // namespace pocstd
