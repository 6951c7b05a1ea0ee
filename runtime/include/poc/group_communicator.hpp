#pragma once
/// \file
/// An MPI communicator over a process group's hosts, for programs that
/// combine processes with MPI's own collectives or one-sided windows
/// (docs/runtime.md section 6.1).

#include <poc/process_group.hpp>

#include <mpi.h>

namespace poc {

/// Makes a communicator whose rank i is the job rank hosting member i of
/// `member`'s group. Collective over the group: every member calls it, from
/// one of its methods, with no other such call of the same group pending.
/// The caller owns the result and frees it with MPI_Comm_free before the
/// process ends.
///
/// MPI collectives run over ranks, not processes, so every member must run
/// on its own rank of the job: a member on a spawned host, or two members
/// on one rank, is a poc::usage_error that names them. Outside a group it
/// is a poc::usage_error too.
MPI_Comm make_group_communicator(const ProcessGroupMember &member);

} // namespace poc
