#pragma once
/// \file
/// Placement: which hosts a machine name denotes, and which of them gets
/// a new process.

#include <poc/machine.hpp>

#include <string>
#include <vector>

namespace poc::detail {

/// Learns the host name of every rank (collective over MPI_COMM_WORLD) and
/// reads POC_MACHINES / POC_MACHINEFILE, POC_HOST_CAPACITY and
/// POC_SPAWN_BATCH. World rank r is host number `base + r`. Throws
/// usage_error for a malformed configuration.
void init_placement(int rank, int size, int base);

/// The host for a new process on `m`: among the hosts `m` denotes (its
/// ranks and the hosts spawned for it) that have room, the one with the
/// fewest live processes this rank created there, hosts other than 0
/// first. If none has room (or `m` maps to a host that runs no rank),
/// spawns POC_SPAWN_BATCH new hosts for `m` first.
int choose_host(const machine &m);

/// The host for the process named by `key` on `m` (a persistent process's
/// address): the same for every caller, so that all of them name one process.
int host_for_key(const machine &m, std::uint64_t key);

/// Accounting for choose_host.
void note_destroyed(int host);

/// Parses "name=host;name2=host2" (also newline separated) into pairs.
std::vector<std::pair<std::string, std::string>> parse_machine_map(const std::string &text);

} // namespace poc::detail
