#pragma once
/// \file
/// CPU binding of a host (docs/runtime.md section 7, "Threads").

namespace poc::detail {

/// A host runs many processes, each on its own thread, but Open MPI binds
/// every rank to one core by default when the job has no more ranks than
/// cores: all of a host's processes would then share that core (measured:
/// fft3d 256^3 with its four processes in one rank took 0.43 s bound, 0.22 s
/// unbound). When the calling thread is bound to exactly one CPU, and
/// POC_KEEP_BINDING is unset, this allows it every CPU the process may use
/// (the kernel keeps a cpuset's limits); the host's threads, started
/// afterwards, inherit that. A binding to several CPUs is the user's
/// choice and is kept.
void widen_single_cpu_binding() noexcept;

} // namespace poc::detail
