//===- poc/persist/crc32c.hpp - CRC-32C (Castagnoli) checksums ------------===//
//
// Store records carry CRC-32C checksums: the polynomial detects every burst
// error up to 32 bits and every odd number of flipped bits, and x86-64 CPUs
// compute it in hardware (SSE4.2), so checking a record on load costs far
// less than reading it from disk.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>

namespace poc::persist {

/// CRC-32C of \p size bytes at \p data. Passing the result of a previous call
/// as \p crc continues that checksum, so crc32c(b, nb, crc32c(a, na)) equals
/// the checksum of a followed by b. crc32c("123456789", 9) == 0xe3069283.
std::uint32_t crc32c(const void *data, std::size_t size, std::uint32_t crc = 0) noexcept;

/// The same checksum computed with tables only, never with CPU instructions;
/// crc32c() uses it on CPUs without SSE4.2. Exposed so tests can check that
/// both paths agree on the machine at hand.
std::uint32_t crc32c_portable(const void *data, std::size_t size, std::uint32_t crc = 0) noexcept;

} // namespace poc::persist
