// Machine names mapped by POC_MACHINES (set by ctest to
// "alpha=<this host>;beta=<this host>;ghost=no-such-host.invalid", and with
// "*=*" added, which lets other names denote every host).

#include "check.hpp"
#include "counter.hpp"

#include <poc/gen/runtime.hpp>

#include <cstdlib>
#include <string>

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
    CHECK(Counter_client::get_0(a) + Counter_client::get_0(b) == 3);
    poc::destroy(a);
    poc::destroy(b);
  });
  if (std::string(std::getenv("POC_MACHINES")).find("*=*") != std::string::npos) {
    check::section("with '*=*', a name not in the map denotes every host", [] {
      Counter *u = Counter_client::create_0("unconfigured", 3);
      CHECK(Counter_client::get_0(u) == 3);
      poc::destroy(u);
    });
  } else {
    check::section("a name not in the map is an error naming the names it has", [] {
      CHECK(check::throws<poc::usage_error>(
          [] { Counter_client::create_0("alpah", 1); },
          "machine 'alpah' is not in POC_MACHINES, which names alpha, beta, ghost"));
    });
  }
  check::section("a machine on a host outside the job is an error", [] {
    CHECK(check::throws<poc::usage_error>([] { Counter_client::create_0("ghost", 1); },
                                          "runs no rank"));
  });
  std::printf("%s\n", check::failures ? "SOME CHECKS FAILED" : "ALL CHECKS PASSED");
  return check::failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) { return poc::run(argc, argv, &body); }
