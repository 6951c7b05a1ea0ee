//===- pocstd/device_stats.hpp - I/O counters of a page device ----*- C++ -*-===//
///
/// \file
/// DeviceStats: what a page server did, for the per-phase report of paper
/// section 5.3 ("ArrayDevice::ReadIntoCache: 22 pages, 704 MB, 5.6 sec").
///
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace pocstd {

/// Counters since the device was created (or since the last resetStats()).
/// Times are wall-clock seconds spent inside the medium's I/O calls.
struct DeviceStats {
  std::uint64_t pages_read = 0;    ///< pages read from the medium
  std::uint64_t pages_written = 0; ///< pages written to the medium
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  double read_seconds = 0;
  double write_seconds = 0;
  std::uint64_t cache_fills = 0;  ///< pages ReadIntoCache loaded (ArrayDevice)
  std::uint64_t cache_hits = 0;   ///< reads served from the cache
  std::uint64_t cache_misses = 0; ///< reads that went to the medium
  double cache_fill_seconds = 0;  ///< time spent in ReadIntoCache
  /// Page accesses by clients in the device's OS process that copied
  /// straight to or from the device's memory (LocalPages), bypassing it.
  std::uint64_t pages_shared = 0;
};

} // namespace pocstd
