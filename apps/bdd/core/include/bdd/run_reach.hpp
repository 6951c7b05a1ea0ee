//===- bdd/run_reach.hpp - One worker's part of a bdd-reach run ----*- C++ -*-===//
///
/// \file
/// run_reach: everything a bdd-reach worker does, given the communicator of
/// its team: allocate its share of the node table and operation cache, let
/// member 0 read the model and make its nodes, share the model's edges,
/// compute the reachable states together, and gather the statistics. The
/// poc++ program (apps/bdd/main.cpp) only creates the workers and calls it.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "bdd/reach_options.hpp"

#include <mpi.h>

#include <cstdio>
#include <string>

namespace bdd {

/// Collective over `team`. Returns the report on member 0 (the lines
/// `states:`, `nodes:`, `depth:` for bfs, `sweeps:` for chain, `time:`,
/// `table:` and `probes:`), "" on the others. With options.progress,
/// member 0 writes one line per level to `progress` as it goes. Throws the
/// model's ModelError, TableFull, or PeerFailed on members that did not
/// fail themselves.
std::string run_reach(MPI_Comm team, const ReachOptions &options, std::FILE *progress);

} // namespace bdd
