#pragma once
/// \file
/// MPI failures as exceptions.

namespace poc::detail {

/// Throws std::runtime_error naming `what` if an MPI call returned `rc`
/// other than MPI_SUCCESS.
void check_mpi(int rc, const char *what);

} // namespace poc::detail
