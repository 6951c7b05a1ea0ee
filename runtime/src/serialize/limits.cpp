//===- serialize/limits.cpp - Process-wide default decoding limits --------===//
#include "poc/serialize/limits.hpp"

namespace poc {

namespace {
Limits &defaults() noexcept {
  static Limits limits;
  return limits;
}
} // namespace

const Limits &default_limits() noexcept { return defaults(); }

void set_default_limits(const Limits &limits) noexcept { defaults() = limits; }

} // namespace poc
