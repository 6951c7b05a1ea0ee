//===- sequential_lcs.cpp - The baseline: the plain sequential DP --------===//
///
/// sequential-lcs A B: the LCS length of files A and B by the plain
/// dynamic program over the whole matrix (two rows of memory), the same
/// kernel the dataflow blocks run. Prints "lcs length: N".
///
//===----------------------------------------------------------------------===//
#include "lcs_kernel.hpp"

#include <cstdio>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: sequential-lcs A B\n");
    return 2;
  }
  try {
    std::printf("lcs length: %d\n",
                lcs::sequential_length(lcs::read_sequence(argv[1]), lcs::read_sequence(argv[2])));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "sequential-lcs: %s\n", e.what());
    return 1;
  }
}
