// A plain C++ program: poc++ must leave its floating-point environment (and
// everything else) as clang++ does; MPI's start-up used to set FE_INEXACT.
#include <cfenv>
#include <cstdio>

int main() {
  fexcept_t flags;
  fegetexceptflag(&flags, FE_ALL_EXCEPT);
  std::printf("fe=%d\n", static_cast<int>(flags));
  return 3;
}
