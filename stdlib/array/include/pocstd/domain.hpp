//===- pocstd/domain.hpp - Rectangular 3D index domains -----------*- C++ -*-===//
///
/// \file
/// Domain (paper section 4.1): a box of array indices, the unit in which
/// clients read and write an Array. A plain value type with public fields so
/// that it serialises field by field.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace poc {
class Writer;
class Reader;
} // namespace poc

namespace pocstd {

/// The box lo[d] <= x_d < hi[d], d = 0, 1, 2 (half-open; printed inclusive,
/// "0-127 x 2432-2559 x 0-16383", as in the paper's reports).
struct Domain {
  std::array<std::int64_t, 3> lo{};
  std::array<std::int64_t, 3> hi{};

  Domain() = default;
  /// The box [N11, N12) x [N21, N22) x [N31, N32).
  Domain(std::int64_t N11, std::int64_t N12, std::int64_t N21, std::int64_t N22, std::int64_t N31,
         std::int64_t N32)
      : lo{N11, N21, N31}, hi{N12, N22, N32} {}
  /// The box [0, n1) x [0, n2) x [0, n3).
  static Domain box(std::int64_t n1, std::int64_t n2, std::int64_t n3) {
    return Domain(0, n1, 0, n2, 0, n3);
  }

  /// Length along dimension \p d (0 when empty).
  std::int64_t extent(int d) const { return hi[d] > lo[d] ? hi[d] - lo[d] : 0; }
  /// Number of points.
  std::int64_t size() const { return extent(0) * extent(1) * extent(2); }
  bool empty() const { return size() == 0; }
  /// True when \p inner lies inside this box (an empty box lies anywhere).
  bool contains(const Domain &inner) const;
  /// The common part of the two boxes (possibly empty).
  Domain intersect(const Domain &other) const;
  /// "lo1-hi1 x lo2-hi2 x lo3-hi3" with inclusive upper bounds.
  std::string str() const;

  friend bool operator==(const Domain &, const Domain &) = default;

  /// Serialisation (docs/runtime.md 3.4): the bounds, low then high.
  void poc_write(poc::Writer &w) const;
  void poc_read(poc::Reader &r);
};

} // namespace pocstd
