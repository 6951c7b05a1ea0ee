//===- pocstd/transfer_stats.hpp - What an Array client moved -----*- C++ -*-===//
///
/// \file
/// TransferStats: the bytes an Array client read and wrote, split into the
/// pages it copied straight out of or into a server's memory in its own OS
/// process (local, LocalPages) and the pages that travelled in remote calls
/// (remote), and where its time in Array::read and Array::write went. A
/// report that shows these per pass shows how often the data moves, not only
/// how long a pass took.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace pocstd {

/// Counters of one Array client since its creation (or copy).
struct TransferStats {
  std::uint64_t bytes_read_local = 0;     ///< pages copied out of local servers' memory
  std::uint64_t bytes_read_remote = 0;    ///< pages received from servers in remote calls
  std::uint64_t bytes_written_local = 0;  ///< pages copied into local servers' memory
  std::uint64_t bytes_written_remote = 0; ///< pages sent to servers in remote calls
  /// Seconds the client spent copying between its buffer and pages
  /// (transposing where asked), local and received pages alike.
  double copy_seconds = 0;
  /// Seconds it spent on remote calls: requesting pages and waiting for
  /// them, handing written pages to the runtime, confirming writes.
  double wait_seconds = 0;

  /// Memory copies per byte of a page transfer: a local page is copied once
  /// (between the server's memory and the client's buffer); a remote page
  /// four times (into the message, through MPI, out of the message, into or
  /// out of the client's buffer; docs/stdlib.md, "Shared pages").
  static constexpr double kLocalCopies = 1;
  static constexpr double kRemoteCopies = 4;

  /// Bytes of local pages, read and written.
  std::uint64_t bytes_local() const { return bytes_read_local + bytes_written_local; }
  /// Bytes of remote pages, read and written.
  std::uint64_t bytes_remote() const { return bytes_read_remote + bytes_written_remote; }

  /// Adds \p other's counters (another client's, to sum a pass).
  TransferStats &operator+=(const TransferStats &other) {
    bytes_read_local += other.bytes_read_local;
    bytes_read_remote += other.bytes_read_remote;
    bytes_written_local += other.bytes_written_local;
    bytes_written_remote += other.bytes_written_remote;
    copy_seconds += other.copy_seconds;
    wait_seconds += other.wait_seconds;
    return *this;
  }

  /// The counters accumulated since \p earlier (a copy of these taken then).
  TransferStats since(const TransferStats &earlier) const {
    return {bytes_read_local - earlier.bytes_read_local,
            bytes_read_remote - earlier.bytes_read_remote,
            bytes_written_local - earlier.bytes_written_local,
            bytes_written_remote - earlier.bytes_written_remote,
            copy_seconds - earlier.copy_seconds,
            wait_seconds - earlier.wait_seconds};
  }
};

} // namespace pocstd
