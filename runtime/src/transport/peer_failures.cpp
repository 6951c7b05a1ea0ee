#include "peer_failures.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string_view>

namespace poc::detail {

std::string PeerFailures::handle(int rc, const char *what, int peer, HostLock &lk) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  std::string failure = fmt::format("{} with host {} failed: {}", what, peer,
                                    std::string_view(text, static_cast<std::size_t>(len)));
  if (handler_)
    handler_(peer, failure, lk);
  return failure;
}

void PeerFailures::fail(int rc, const char *what, int peer, LazyHostLock &lock) {
  throw std::runtime_error("poc: " + handle(rc, what, peer, lock.get()));
}

void PeerFailures::report(int rc, const char *what, int peer, HostLock &lk) {
  fmt::print(stderr, "poc: host {}: {}\n", self_, handle(rc, what, peer, lk));
}

} // namespace poc::detail
