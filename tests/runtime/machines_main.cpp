// Machine names mapped by POC_MACHINES (set by ctest to
// "alpha=<this host>;beta=<this host>;ghost=no-such-host.invalid").

#include "check.hpp"
#include "counter.hpp"

#include <poc/gen/runtime.hpp>

using demo::Counter;
using demo::Counter_client;
using C = demo::Counter_interface;

namespace {

int body() {
  check::section("configured machines are listed by index", [] {
    std::vector<poc::machine> ms = poc::machines();
    CHECK(ms.size() == 3);
    CHECK(ms.size() == 3 && ms[0].name() == "alpha" && ms[1].name() == "beta" &&
          ms[2].name() == "ghost");
    CHECK(poc::this_machine().name() == "alpha");
  });
  check::section("processes are created on mapped machines", [] {
    Counter *a = Counter_client::create_0(poc::machines()[0], 1);
    Counter *b = Counter_client::create_0("beta", 2);
    Counter *u = Counter_client::create_0("unconfigured", 3); // = every host
    CHECK(Counter_client::get_0(a) + Counter_client::get_0(b) + Counter_client::get_0(u) == 6);
    poc::destroy(a);
    poc::destroy(b);
    poc::destroy(u);
  });
  check::section("a machine on a host outside the job is an error", [] {
    CHECK(check::throws<poc::usage_error>([] { Counter_client::create_0("ghost", 1); },
                                          "runs no rank"));
  });
  std::printf("%s\n", check::failures ? "SOME CHECKS FAILED" : "ALL CHECKS PASSED");
  return check::failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) { return poc::run(argc, argv, &body); }
