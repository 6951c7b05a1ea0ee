//===- persist/crc32c.cpp - CRC-32C (Castagnoli) checksums ----------------===//
//
// Two implementations: the SSE4.2 crc32 instruction (three interleaved
// streams), chosen at run time when the CPU has it, and a portable
// slice-by-8 table fallback.
//
//===----------------------------------------------------------------------===//
#include "poc/persist/crc32c.hpp"

#include <array>
#include <bit>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace poc::persist {

namespace {

constexpr std::uint32_t Polynomial = 0x82f63b78; // reflected 0x1edc6f41

using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

constexpr Tables make_tables() {
  Tables t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k)
      c = (c & 1) ? (c >> 1) ^ Polynomial : c >> 1;
    t[0][i] = c;
  }
  for (std::size_t s = 1; s < 8; ++s)
    for (std::size_t i = 0; i < 256; ++i)
      t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
  return t;
}

constexpr Tables Table = make_tables();

std::uint32_t crc_software(const unsigned char *p, std::size_t n, std::uint32_t c) noexcept {
  while (n >= 8) {
    std::uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + 4, 4);
    if constexpr (std::endian::native == std::endian::big) {
      lo = __builtin_bswap32(lo);
      hi = __builtin_bswap32(hi);
    }
    lo ^= c;
    c = Table[7][lo & 0xff] ^ Table[6][(lo >> 8) & 0xff] ^ Table[5][(lo >> 16) & 0xff] ^
        Table[4][lo >> 24] ^ Table[3][hi & 0xff] ^ Table[2][(hi >> 8) & 0xff] ^
        Table[1][(hi >> 16) & 0xff] ^ Table[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n--)
    c = (c >> 8) ^ Table[0][(c ^ *p++) & 0xff];
  return c;
}

#if defined(__x86_64__)
/// The crc32 instruction has a latency of three cycles but a throughput of
/// one per cycle, so the hardware path runs three independent streams over
/// consecutive blocks of StreamBytes and merges their states afterwards.
constexpr std::size_t StreamBytes = 4096;

/// The linear map "feed StreamBytes zero bytes" on raw (unconditioned) CRC
/// states, as four byte-indexed tables: shift(c) = T0[c&255] ^ T1[..] ^ ...
/// Merging uses crc(A || B) = shift_|B|(crc(A)) ^ crc_from_zero(B).
struct ShiftTables {
  std::array<std::array<std::uint32_t, 256>, 4> t{};

  ShiftTables() {
    std::array<std::uint32_t, 32> basis{};
    for (std::size_t bit = 0; bit < 32; ++bit) {
      std::uint32_t c = std::uint32_t{1} << bit;
      for (std::size_t i = 0; i < StreamBytes; ++i)
        c = (c >> 8) ^ Table[0][c & 0xff];
      basis[bit] = c;
    }
    for (std::size_t k = 0; k < 4; ++k)
      for (std::size_t b = 0; b < 256; ++b)
        for (std::size_t bit = 0; bit < 8; ++bit)
          if (b & (std::size_t{1} << bit))
            t[k][b] ^= basis[8 * k + bit];
  }

  std::uint32_t shift(std::uint32_t c) const noexcept {
    return t[0][c & 0xff] ^ t[1][(c >> 8) & 0xff] ^ t[2][(c >> 16) & 0xff] ^ t[3][c >> 24];
  }
};

__attribute__((target("sse4.2"))) std::uint32_t crc_hardware(const unsigned char *p, std::size_t n,
                                                             std::uint32_t c) noexcept {
  if (n >= 3 * StreamBytes) {
    static const ShiftTables shifter;
    while (n >= 3 * StreamBytes) {
      std::uint64_t a = c, b = 0, d = 0;
      for (std::size_t i = 0; i < StreamBytes; i += 8) {
        std::uint64_t va, vb, vd;
        std::memcpy(&va, p + i, 8);
        std::memcpy(&vb, p + StreamBytes + i, 8);
        std::memcpy(&vd, p + 2 * StreamBytes + i, 8);
        a = _mm_crc32_u64(a, va);
        b = _mm_crc32_u64(b, vb);
        d = _mm_crc32_u64(d, vd);
      }
      c = shifter.shift(shifter.shift(static_cast<std::uint32_t>(a)) ^
                        static_cast<std::uint32_t>(b)) ^
          static_cast<std::uint32_t>(d);
      p += 3 * StreamBytes;
      n -= 3 * StreamBytes;
    }
  }
  std::uint64_t c64 = c;
  while (n >= 8) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    c64 = _mm_crc32_u64(c64, v);
    p += 8;
    n -= 8;
  }
  c = static_cast<std::uint32_t>(c64);
  while (n--)
    c = _mm_crc32_u8(c, *p++);
  return c;
}

bool has_hardware_crc() noexcept {
  static const bool has = __builtin_cpu_supports("sse4.2");
  return has;
}
#endif

} // namespace

std::uint32_t crc32c(const void *data, std::size_t size, std::uint32_t crc) noexcept {
  auto *p = static_cast<const unsigned char *>(data);
  std::uint32_t state = ~crc;
#if defined(__x86_64__)
  if (has_hardware_crc())
    return ~crc_hardware(p, size, state);
#endif
  return ~crc_software(p, size, state);
}

std::uint32_t crc32c_portable(const void *data, std::size_t size, std::uint32_t crc) noexcept {
  return ~crc_software(static_cast<const unsigned char *>(data), size, ~crc);
}

} // namespace poc::persist
