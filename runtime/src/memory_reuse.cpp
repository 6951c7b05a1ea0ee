//===- memory_reuse.cpp - Freed memory kept for the next large call -------===//
#include "memory_reuse.hpp"

#include <malloc.h>

#include <cstdlib>
#include <cstring>

namespace poc::detail {

namespace {

/// Whether the user chose malloc's thresholds through the environment.
bool thresholds_chosen_by_user() noexcept {
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") || std::getenv("MALLOC_TRIM_THRESHOLD_"))
    return true;
  const char *tunables = std::getenv("GLIBC_TUNABLES");
  return tunables && (std::strstr(tunables, "glibc.malloc.mmap_threshold") ||
                      std::strstr(tunables, "glibc.malloc.trim_threshold"));
}

} // namespace

void keep_freed_memory() noexcept {
  if (thresholds_chosen_by_user())
    return;
  // Both are set: setting either one alone turns off glibc's adjustment of
  // the other.
  constexpr int kLargestHeapBlock = 32 << 20;
  constexpr int kFreeTopKept = 64 << 20;
  mallopt(M_MMAP_THRESHOLD, kLargestHeapBlock);
  mallopt(M_TRIM_THRESHOLD, kFreeTopKept);
}

} // namespace poc::detail
