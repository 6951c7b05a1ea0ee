#pragma once
/// \file
/// Host numbers (docs/runtime.md section 11): every host of a job has one,
/// and ProcessId::host holds it. The job's own ranks are 0..K-1; a host
/// spawned by rank p gets a number from p's own range above kSpawnBase, so
/// numbers are unique without coordination and every host can tell which
/// rank spawned a host from its number alone (the relay path goes there).

namespace poc::detail {

/// The first number of spawned hosts; the job's ranks are below it.
inline constexpr int kSpawnBase = 1 << 20;
/// Spawned hosts per spawning rank.
inline constexpr int kSpawnPerParent = 1 << 12;

/// True if `host` names a spawned host.
constexpr bool is_spawned_host(int host) noexcept { return host >= kSpawnBase; }

/// The job rank that spawned `host` (precondition: is_spawned_host(host)).
constexpr int spawner_of(int host) noexcept { return (host - kSpawnBase) / kSpawnPerParent; }

/// The first number of the hosts rank `parent` spawns.
constexpr int first_spawned_by(int parent) noexcept {
  return kSpawnBase + parent * kSpawnPerParent;
}

} // namespace poc::detail
