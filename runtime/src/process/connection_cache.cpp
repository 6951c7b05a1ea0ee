// The connection cache's public controls (declared in <poc/machine.hpp>).

#include "host.hpp"

#include <poc/machine.hpp>

namespace poc {

void set_connection_cache(std::size_t n) { detail::host().connections().set_limit(n); }

ConnectionStats connection_stats() {
  detail::Connections &c = detail::host().connections();
  detail::HostLock lk = detail::host().lock();
  return ConnectionStats{c.opened(), c.closed(), c.limit()};
}

} // namespace poc
