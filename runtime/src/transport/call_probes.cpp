#include "call_probes.hpp"

#ifdef POC_CALL_PROBES

#include <x86intrin.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace poc::detail::probes {
namespace {

/// Stamps kept per point: enough for a profile of a million calls.
constexpr std::size_t kStamps = std::size_t{1} << 20;

struct Stamps {
  std::unique_ptr<std::uint64_t[]> tsc{new std::uint64_t[kStamps]};
  std::atomic<std::size_t> count{0};
};

std::array<Stamps, kPoints> g_points;

/// The first stamp with the clock beside it, to convert ticks to ns.
struct Origin {
  std::uint64_t tsc = __rdtsc();
  std::chrono::steady_clock::time_point at = std::chrono::steady_clock::now();
};
Origin &origin() {
  static Origin o;
  return o;
}

} // namespace

void mark(Point p) noexcept {
  static_cast<void>(origin());
  Stamps &s = g_points[p];
  const std::size_t i = s.count.fetch_add(1, std::memory_order_relaxed);
  if (i < kStamps)
    s.tsc[i] = __rdtsc();
}

void write(int host) noexcept {
  const char *out = std::getenv("POC_PROBES_OUT");
  if (!out || !*out)
    return;
  const std::uint64_t ticks = __rdtsc() - origin().tsc;
  const double ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - origin().at)
          .count();
  FILE *f = std::fopen((std::string(out) + "." + std::to_string(host)).c_str(), "w");
  if (!f)
    return;
  std::fprintf(f, "ns_per_tick %.9f\n", ticks ? ns / static_cast<double>(ticks) : 0.0);
  for (unsigned p = 0; p < kPoints; ++p) {
    const std::size_t n = std::min(g_points[p].count.load(), kStamps);
    std::fprintf(f, "point %u %zu\n", p, n);
    for (std::size_t i = 0; i < n; ++i)
      std::fprintf(f, "%llu\n", static_cast<unsigned long long>(g_points[p].tsc[i]));
  }
  std::fclose(f);
}

} // namespace poc::detail::probes

#endif
