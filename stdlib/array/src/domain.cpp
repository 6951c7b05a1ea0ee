//===- domain.cpp - Rectangular 3D index domains --------------------------===//

#include "pocstd/domain.hpp"

#include <poc/serialize.hpp>

#include <algorithm>

namespace pocstd {

bool Domain::contains(const Domain &inner) const {
  if (inner.empty())
    return true;
  for (int d = 0; d < 3; ++d)
    if (inner.lo[d] < lo[d] || inner.hi[d] > hi[d])
      return false;
  return true;
}

Domain Domain::intersect(const Domain &other) const {
  Domain r;
  for (int d = 0; d < 3; ++d) {
    r.lo[d] = std::max(lo[d], other.lo[d]);
    r.hi[d] = std::max(r.lo[d], std::min(hi[d], other.hi[d]));
  }
  return r;
}

void Domain::poc_write(poc::Writer &w) const {
  w.write(lo);
  w.write(hi);
}

void Domain::poc_read(poc::Reader &r) {
  r.read(lo);
  r.read(hi);
}

std::string Domain::str() const {
  std::string s;
  for (int d = 0; d < 3; ++d) {
    if (d != 0)
      s += " x ";
    s += std::to_string(lo[d]) + "-" + std::to_string(hi[d] - 1);
  }
  return s;
}

} // namespace pocstd
