// Which point-to-point layer a program asks Open MPI for (docs/runtime.md
// section 1, "Program start and end"): a bare run (a singleton) without a
// machine configuration asks for `ob1`, unless the environment chose one;
// a run under mpirun leaves the choice to the site. The program prints what
// the environment holds after start-up; ctest checks it for each case. With
// POC_HOST_CAPACITY=1 the second process goes to a spawned host, which must
// understand its parent under the same choice.

#include "check.hpp"
#include "counter.hpp"

#include <poc/gen/runtime.hpp>

#include <cstdio>
#include <cstdlib>

using demo::Counter;
using demo::Counter_client;

namespace {

int body() {
  const char *pml = std::getenv("OMPI_MCA_pml");
  std::printf("pml: %s\n", pml ? pml : "(not set)");
  check::section("processes answer, spawned or not", [] {
    Counter *a = Counter_client::create_0("m", 1);
    Counter *b = Counter_client::create_0("m", 2);
    CHECK(Counter_client::get_0(a) + Counter_client::get_0(b) == 3);
    poc::destroy(a);
    poc::destroy(b);
  });
  std::printf("%s\n", check::failures ? "SOME CHECKS FAILED" : "ALL CHECKS PASSED");
  return check::failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) { return poc::run(argc, argv, &body); }
