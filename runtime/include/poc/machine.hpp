#pragma once
/// \file
/// Machines: the named places where processes are created with `new(m) T`.

#include <cstddef>
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

/// The job's machines by index: the configured names in configuration order,
/// or without configuration one machine per distinct host of the job.
std::vector<machine> machines();

/// The machine the caller runs on (its configured name if one maps to this
/// host, else the host name).
machine this_machine();

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
