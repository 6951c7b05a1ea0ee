#pragma once
/// \file
/// How a bare `./app` (an MPI singleton) starts MPI (docs/runtime.md
/// section 1, "Program start and end").

namespace poc::detail {

/// Without a machine configured to another node, a singleton talks only to
/// itself and to the hosts it spawns on its own node, for which Open MPI's
/// `ob1` point-to-point layer over shared memory is the right one whatever
/// fabric the node has. But Debian's Open MPI 4.1 first tries every fabric
/// it was built for (the `cm` layer's PSM, PSM2 and OFI transports), which
/// costs 0.2 s of MPI_Init on a machine without them (measured here: 0.27 s
/// against 0.06 s). So, before MPI_Init, when the process was not started
/// by a launcher (mpirun, srun: no OMPI_COMM_WORLD_SIZE, PMIX_RANK or
/// PMI_RANK), no machine is configured (POC_MACHINES, POC_MACHINEFILE) and
/// the environment chooses no point-to-point layer (OMPI_MCA_pml), this
/// chooses `ob1`. The hosts a singleton spawns inherit the choice through
/// the environment. Under a launcher nothing changes: there the site's MPI
/// configuration decides.
void choose_singleton_transport() noexcept;

} // namespace poc::detail
