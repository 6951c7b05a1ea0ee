#pragma once
/// \file
/// Spawned hosts (docs/runtime.md section 11): the parent's side lives in
/// Host::spawn_hosts; this is what both sides need around it.

#include "engine.hpp"

#include <mpi.h>

#include <cstdint>

namespace poc::detail {

/// What a parent tells each host it spawned, before either side's engine
/// polls (kHelloTag on the parent/children intercommunicator).
struct Hello {
  std::int32_t base = 0;        ///< host number of the batch's world rank 0
  std::int32_t parent = -1;     ///< host number of the parent
  std::int32_t job_hosts = 0;   ///< ranks of the job that started the program
  std::int32_t cache_limit = 0; ///< the parent's connection cache limit
};

/// What each spawned host answers its parent's Hello with: where it runs,
/// so that the parent can tell when it dies (Host::check_spawned_hosts).
struct HelloReply {
  std::int32_t pid = 0;
  char node[64] = {};
};

/// Remembers the program's arguments (spawned hosts run the same program
/// with the same arguments).
void remember_arguments(int argc, char **argv);

/// A spawned host's first step, collective with its parent and siblings:
/// duplicates `parent` for out-of-band blocks, receives the Hello and
/// answers it (HelloReply).
/// Returns the link to the parent (add it once the engine exists).
std::shared_ptr<Link> join_parent(MPI_Comm parent, Hello &hello);

/// The last step of a job with spawned hosts, after every host finished
/// (section 8): disconnects the parent/children links (collective with
/// the other side) and frees any connection left open.
void disconnect_links(Engine &engine);

} // namespace poc::detail
