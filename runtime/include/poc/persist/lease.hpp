//===- poc/persist/lease.hpp - Exclusive activation of an object ----------===//
//
// A persistent object must be active in at most one process at a time, or
// two copies of its state would diverge and the last save would silently
// drop the other's updates. The runtime takes a Lease on an address before
// it activates the object and keeps it until the object is deactivated; a
// second program (or host) that tries to activate the same object gets a
// clear store_error(busy) naming the holder instead.
//
// A lease is an exclusive fcntl lock (open-file-description lock) on a small
// lock file next to the record, so the kernel releases it when the holder
// exits or is killed: a crashed program never leaves an object locked.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/persist/address.hpp"

#include <filesystem>

namespace poc::persist {

class Store;

/// The exclusive right to have one object active. Movable, not copyable;
/// released by release() or destruction. Holds one file descriptor.
class Lease {
public:
  Lease(Lease &&other) noexcept;
  Lease &operator=(Lease &&other) noexcept;
  Lease(const Lease &) = delete;
  Lease &operator=(const Lease &) = delete;
  ~Lease() { release(); }

  /// The leased object's address.
  const Address &address() const noexcept { return Addr; }
  /// False once released or moved from.
  bool held() const noexcept { return Fd >= 0; }

  /// Gives the object up. If the object was removed from the store while
  /// leased, also deletes its lock file and any directories left empty.
  void release() noexcept;

private:
  friend class Store;
  Lease(std::filesystem::path root, Address address, int fd) noexcept
      : Root(std::move(root)), Addr(std::move(address)), Fd(fd) {}

  std::filesystem::path Root;
  Address Addr;
  int Fd = -1;
};

} // namespace poc::persist
