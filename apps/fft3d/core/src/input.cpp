//===- input.cpp - Deterministic input data -------------------------------===//

#include "fft3d/input.hpp"

namespace fft3d {

namespace {
/// SplitMix64: a full-period mix of a 64-bit counter.
std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
double unit(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0; }
} // namespace

std::complex<double> inputValue(std::uint64_t seed, const std::int64_t n[3], std::int64_t x1,
                                std::int64_t x2, std::int64_t x3) {
  auto k = static_cast<std::uint64_t>((x1 * n[1] + x2) * n[2] + x3);
  std::uint64_t h = mix(seed * 0x100000001b3ULL ^ mix(k));
  return {unit(h), unit(mix(h))};
}

void fillInput(std::uint64_t seed, const pocstd::Domain &array, const pocstd::Domain &d,
               std::complex<double> *buffer) {
  std::int64_t n[3] = {array.extent(0), array.extent(1), array.extent(2)};
  for (auto x1 = d.lo[0]; x1 < d.hi[0]; ++x1)
    for (auto x2 = d.lo[1]; x2 < d.hi[1]; ++x2)
      for (auto x3 = d.lo[2]; x3 < d.hi[2]; ++x3)
        *buffer++ = inputValue(seed, n, x1, x2, x3);
}

} // namespace fft3d
