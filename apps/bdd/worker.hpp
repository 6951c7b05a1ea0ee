//===- worker.hpp - A bdd-reach worker process --------------------*- C++ -*-===//
///
/// \file
/// BddWorker: one member of the team that computes a bdd-reach run. Each
/// worker is a process on its own rank (created with `new(machine)`), owns
/// that rank's share of the node table and operation cache (its windows),
/// and takes part in the collective reachability computation.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "bdd/reach_options.hpp"
#include "bdd/run_reach.hpp"

#include <poc/group_communicator.hpp>
#include <poc/process_group.hpp>

#include <cstdio>
#include <string>
#include <utility>

class BddWorker : public poc::ProcessGroupMember {
public:
  /// A member of a run with the options `o` (the same on every member).
  explicit BddWorker(bdd::ReachOptions o) : options(std::move(o)) {}

  /// Collective over the group: the reachability run. Returns the report
  /// on member 0, "" on the others.
  std::string run() {
    MPI_Comm team = poc::make_group_communicator(*this);
    // A team of threads is bdd's own, which the host does not see run: it
    // would share the one core Open MPI may have bound this rank to. Every
    // member widens, so that all size their teams (a collective, in
    // bdd::run_reach) from the same kind of binding.
    poc::use_usable_cpus();
    try {
      std::string report = bdd::run_reach(team, options, stdout);
      MPI_Comm_free(&team);
      return report;
    } catch (...) {
      MPI_Comm_free(&team);
      throw;
    }
  }

private:
  bdd::ReachOptions options;
};
