#pragma once
/// \file
/// CPU binding of a host (docs/runtime.md section 7, "CPU binding").

namespace poc::detail {

/// Reads the binding the host starts with; poc::run calls it once, before
/// the host's threads start. Open MPI binds every rank to one core by
/// default when the job has no more ranks than cores. A host that runs one
/// piece of user code at a time is fastest so bound: widened, the kernel
/// may put two ranks' polling threads on one core, where they take turns
/// (process creation then took 12-14 us instead of 2.5-3.8 us). A host
/// that runs several at once needs every CPU it may use, or they share one
/// core (fft3d 256^3 with four processes in one rank: 0.43 s bound, 0.22 s
/// widened). So a one-CPU binding is kept until the host gets busy
/// (BusyThread, widen_binding). A binding to several CPUs is the user's
/// choice and is never changed, and POC_KEEP_BINDING keeps a one-CPU
/// binding for good.
void note_start_binding() noexcept;

/// The number of CPUs the host's threads may use once the binding is
/// widened (the kernel's cpuset limits included): what applications size
/// their thread teams by. Before poc::run, the calling thread's CPUs.
int usable_cpus() noexcept;

/// Allows every thread of the host, present and future, every usable CPU.
/// The first call does it; later calls cost an atomic load.
void widen_binding() noexcept;

/// Counts the calling thread, while it lives, as running user code: the
/// host's binding is widened when two such threads run at once. The main
/// program counts as one for as long as it runs.
class BusyThread {
public:
  BusyThread() noexcept;
  ~BusyThread();
  BusyThread(const BusyThread &) = delete;
  BusyThread &operator=(const BusyThread &) = delete;
};

} // namespace poc::detail
