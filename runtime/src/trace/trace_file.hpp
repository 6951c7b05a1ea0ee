#pragma once
/// \file
/// The file POC_TRACE names: opened when the runtime starts, written when
/// it ends, by the first rank of MPI_COMM_WORLD, with the events every rank
/// recorded (trace/recorder.hpp) gathered to it over MPI.

namespace poc::detail::trace {

/// Collective over MPI_COMM_WORLD, before the host's threads start: world
/// rank 0 reads POC_TRACE and opens the file it names (hosts spawned by the
/// job, whose first host is `base`, write `<path>.<base>`); every rank
/// records if it could. An unwritable path is reported on standard error
/// and the run goes on untraced.
void start_tracing(int world_rank, int base);

/// Collective over MPI_COMM_WORLD, after the host's threads have ended:
/// stops recording, gathers the events to world rank 0, which writes the
/// trace and closes the file. Reports what could not be written (and
/// events dropped from full buffers) on standard error; never throws.
void finish_tracing(int world_rank, int world_size, int base) noexcept;

} // namespace poc::detail::trace
