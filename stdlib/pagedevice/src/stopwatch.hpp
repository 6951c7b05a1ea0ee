//===- stopwatch.hpp - Wall-clock interval timer (internal) -------*- C++ -*-===//
#pragma once

#include <chrono>

namespace pocstd::detail {

/// Seconds since construction, on the monotonic clock.
class Stopwatch {
public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

} // namespace pocstd::detail
