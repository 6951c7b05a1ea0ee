// Large blocks freed by a program under the runtime are kept for reuse
// (docs/runtime.md section 1, "Program start and end"): 64 rounds of
// allocating and filling four 1 MiB blocks, then freeing them, fault in the
// blocks' pages about once, where glibc's defaults hand the freed heap top
// back to the system in every round (more than twice the largest block is
// free) and fault the pages in again. The program prints the page faults of
// the rounds; ctest checks the default (kept) and a user's own malloc
// thresholds in the environment (left as the user set them).

#include "check.hpp"

#include <poc/run.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr std::size_t kBlock = std::size_t{1} << 20;
constexpr long kRounds = 64;
constexpr int kLive = 4;

long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}

int body(int argc, char **argv) {
  const bool expect_kept = argc > 1 && std::string(argv[1]) == "kept";
  const long pages_per_round = static_cast<long>(kLive * kBlock) / sysconf(_SC_PAGESIZE);
  check::section("page faults of 1 MiB blocks freed and allocated again", [&] {
    const long before = minor_faults();
    for (long round = 0; round < kRounds; ++round) {
      void *blocks[kLive];
      for (void *&block : blocks) {
        block = std::malloc(kBlock);
        CHECK(block != nullptr);
        std::memset(block, static_cast<int>(round), kBlock);
        // The compiler may not drop the block: the fill is observed.
        asm volatile("" : : "r"(block) : "memory");
      }
      for (void *block : blocks)
        std::free(block);
    }
    const long faults = minor_faults() - before;
    std::printf("faults: %ld in %ld rounds of %ld pages\n", faults, kRounds, pages_per_round);
    if (expect_kept)
      CHECK(faults < 4 * pages_per_round);
    else
      CHECK(faults > kRounds / 2 * pages_per_round);
  });
  std::printf("%s\n", check::failures ? "SOME CHECKS FAILED" : "ALL CHECKS PASSED");
  return check::failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) { return poc::run(argc, argv, &body); }
