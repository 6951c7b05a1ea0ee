//===- bdd/team.hpp - Failing together ------------------------------*- C++ -*-===//
///
/// \file
/// The members of a team meet in collectives after every step, so a member
/// whose step throws must not simply leave: the others would wait for it
/// forever. agreed_step runs a step on every member and then agrees, in one
/// collective, on how it ended everywhere.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "bdd/node_table.hpp"

#include <mpi.h>

#include <exception>
#include <stdexcept>
#include <string>

namespace bdd {

/// Thrown on the members that did not fail when another member did.
class PeerFailed : public std::runtime_error {
public:
  explicit PeerFailed(int member)
      : std::runtime_error("stopped: member " + std::to_string(member) + " failed"),
        member_(member) {}
  int member() const noexcept { return member_; }

private:
  int member_;
};

/// Waits for `request` without keeping a core busy: polls for a moment (most
/// waits between members are short), then sleeps between polls, from 20 us
/// up to 1 ms. A member waits like this for the whole of a step that another
/// member computes (chaining and saturation on member 0, the union of a BFS
/// level); MPI's own blocking wait would spin on a core meanwhile, and on a
/// machine with as many cores as ranks that core is the one the computing
/// member, or anything else running, needs.
void wait_quietly(MPI_Request &request);

/// How a step ended on the whole team.
enum class StepEnd {
  Done,      ///< on every member
  TableFull, ///< some members ran out of table; none failed otherwise
};

/// Collective over `team`: runs `step`, then agrees on how it ended. If a
/// member failed, every member throws: each failing member its own
/// exception, the others PeerFailed naming one that failed. Except that when
/// `table_full_ends_step` holds and every failure was TableFull, every
/// member returns StepEnd::TableFull, so that the team can collect garbage
/// and try again.
template <class Step>
StepEnd agreed_step(MPI_Comm team, Step &&step, bool table_full_ends_step = false) {
  std::exception_ptr failure;
  bool table_full = false;
  try {
    step();
  } catch (const TableFull &) {
    failure = std::current_exception();
    table_full = true;
  } catch (...) {
    failure = std::current_exception();
  }
  int rank = 0;
  MPI_Comm_rank(team, &rank);
  // Max of (failing member or -1, whether a failure was not TableFull).
  int mine[2] = {failure ? rank : -1, failure && !table_full ? 1 : 0}, all[2] = {-1, 0};
  MPI_Request request;
  MPI_Iallreduce(mine, all, 2, MPI_INT, MPI_MAX, team, &request);
  wait_quietly(request);
  if (all[0] < 0)
    return StepEnd::Done;
  if (table_full_ends_step && all[1] == 0)
    return StepEnd::TableFull;
  if (failure)
    std::rethrow_exception(failure);
  throw PeerFailed(all[0]);
}

} // namespace bdd
