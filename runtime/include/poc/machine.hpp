#pragma once
/// \file
/// Machines: the named places where processes are created with `new(m) T`.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace poc {

/// A machine name. With no configuration every name denotes the whole job;
/// `POC_MACHINES="name=host;name2=host2"` or a file named by
/// `POC_MACHINEFILE` (one `name=host` per line) restricts a name to the MPI
/// ranks running on that host. Implicitly constructible from string types
/// so that `new("machine1") T`, `new(node[i]) T` and `new(m) T` all parse.
class machine {
public:
  machine(const char *name) : name_(name ? name : "") {}
  machine(std::string name) : name_(std::move(name)) {}
  machine(std::string_view name) : name_(name) {}

  /// The name this machine was made from.
  const std::string &name() const noexcept { return name_; }

  friend bool operator==(const machine &, const machine &) = default;

private:
  std::string name_;
};

/// Machine names of this form denote one rank of the job: `rank:N`.
inline constexpr const char kRankMachinePrefix[] = "rank:";
/// The machine that is rank `rank` of the job (0 <= rank < job_ranks()),
/// for programs that need one process per rank, e.g. to combine processes
/// with MPI collectives (poc::make_group_communicator). Such a machine is
/// never spawned onto; a rank outside the job is a usage_error at `new`.
machine rank_machine(int rank);

/// Machine names of this form denote one host (rank or spawned host) by its
/// number: `host:N`, as machine_of makes them.
inline constexpr const char kHostMachinePrefix[] = "host:";
/// The host that runs `process` (a reference, a process's own `this`, or an
/// ordinary local object, which runs here), as a machine:
/// `new(poc::machine_of(p)) T` creates T in the same OS process as p, where
/// the two can share memory (poc::local_object). Used whatever the host's
/// load. Throws usage_error for null.
machine machine_of(const void *process);
/// The number of ranks of the job (of the spawned batch, on a spawned host).
int job_ranks();

/// The job's machines by index: the configured names in configuration order,
/// or without configuration one machine per distinct host of the job.
std::vector<machine> machines();

/// The machine the caller runs on (its configured name if one maps to this
/// host, else the host name).
machine this_machine();

/// Starts `hosts` new host processes for machine `m` with one
/// MPI_Comm_spawn (on m's configured host name, or wherever MPI places
/// them for an unconfigured name); later creations on `m` may use them.
/// Spawning costs ~250 ms per call here, so reserving a batch up front is
/// much cheaper than spawning one host at a time (docs/runtime.md section
/// 11). Only the job's own ranks spawn: called in a process on a spawned
/// host it throws usage_error; a host name that cannot be reached throws.
void reserve(const machine &m, int hosts);

/// Sets how many idle connections the calling host keeps open (0: none,
/// every request that finds its connection idle reconnects, like the
/// paper's prototype). Initially POC_CONNECTION_CACHE, default 64.
void set_connection_cache(std::size_t idle_connections);

/// Connections the calling host has made through MPI ports.
struct ConnectionStats {
  std::uint64_t opened = 0; ///< connections opened so far
  std::uint64_t closed = 0; ///< connections closed so far
  std::size_t limit = 0;    ///< idle connections kept open
};
ConnectionStats connection_stats();

} // namespace poc

/// `new(m) T(args)` and `new(m) T[n]` parse as ordinary C++ so that poc++ can
/// rewrite them. Compiled without poc++ they throw `poc::usage_error`.
void *operator new(std::size_t size, const poc::machine &m);
/// Array form of the above; poc++ rewrites it to `poc::create_array`.
void *operator new[](std::size_t size, const poc::machine &m);
/// Matching placement deallocation functions (called only if a constructor
/// throws after the placement allocation, which never happens: the
/// allocation functions themselves throw).
void operator delete(void *p, const poc::machine &m) noexcept;
/// Array form of the above.
void operator delete[](void *p, const poc::machine &m) noexcept;
