//===- bdd/big_count.hpp - Exact state counts ---------------------*- C++ -*-===//
///
/// \file
/// BigCount: an unsigned integer of any size, for counting the states of a
/// set exactly. A state vector of the shared models has up to 224 bits, and
/// counting through complement edges subtracts from 2^(bits below a node),
/// so neither 128-bit integers nor long double would stay exact.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bdd {

/// An arbitrary-precision unsigned integer with what counting needs.
class BigCount {
public:
  BigCount() = default;
  explicit BigCount(std::uint64_t value);
  /// 2^exponent.
  static BigCount power_of_two(unsigned exponent);

  BigCount &operator+=(const BigCount &other);
  /// Precondition: *this >= other.
  BigCount &operator-=(const BigCount &other);
  BigCount &operator<<=(unsigned bits);
  friend BigCount operator+(BigCount a, const BigCount &b) { return a += b; }
  friend BigCount operator-(BigCount a, const BigCount &b) { return a -= b; }
  friend BigCount operator<<(BigCount a, unsigned bits) { return a <<= bits; }
  friend bool operator==(const BigCount &, const BigCount &) = default;

  /// Decimal digits.
  std::string to_string() const;
  /// The value as a double (rounded), for ratios in reports.
  double to_double() const;

private:
  void trim();
  std::vector<std::uint32_t> limbs_; ///< little-endian, no leading zero limbs
};

} // namespace bdd
