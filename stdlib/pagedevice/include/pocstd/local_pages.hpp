//===- pocstd/local_pages.hpp - Zero-copy access to a local server -*- C++ -*-===//
///
/// \file
/// LocalPages: a client's direct access to the pages of a memory page server
/// that lives in the client's own OS process (the same host, docs/runtime.md
/// section 2.1). Instead of a remote call, whose page is copied by the
/// server, sent, received and copied again, the client copies between its
/// buffer and the server's memory once. This is Crail's zero-copy point for
/// the DRAM tier (P. Stuedi, "Data Processing at the Speed of 100 Gbps using
/// Apache Crail", talk slides, 2018), and what makes an Array as fast as its
/// memory when a client and its servers share a host.
///
/// The access bypasses the server's queue, so the client orders it against
/// other clients' calls itself, as for any shared memory: a page is never
/// read while another client writes it (an Array's users already guarantee
/// this between their syncs and barriers). File devices, and devices that
/// cache, are served by their process only: their access is empty.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "pocstd/page_device.hpp"

#include <poc/local_object.hpp>

#include <cstddef>

namespace pocstd {

/// Direct access to a page server's memory, or none.
class LocalPages {
public:
  /// No access.
  LocalPages() = default;
  /// Access to \p server's pages if it is a device of class \p Device that
  /// shares its pages (memory, no cache) and is hosted in the calling OS
  /// process (or an ordinary local object); otherwise no access.
  template <class Device> static LocalPages of(Device *server) {
    return LocalPages(poc::local_object(server));
  }

  /// True when the pages can be accessed directly.
  explicit operator bool() const { return device_ != nullptr; }
  /// The memory of page \p index (PageSize bytes, zero until first
  /// written). Precondition: the access is not empty. Throws
  /// std::out_of_range for a bad index.
  std::byte *page(std::size_t index) const;

private:
  // Defined out of line: the calls through the device pointer are local,
  // which poc++, reading the header in a translated client, could not know.
  explicit LocalPages(PageDevice *device);

  PageDevice *device_ = nullptr;
};

} // namespace pocstd
