//===- persist/lease.cpp - Exclusive activation of an object --------------===//
#include "poc/persist/lease.hpp"

#include "lock_file.hpp"
#include "path_walk.hpp"
#include "poc/persist/error.hpp"
#include "poc/persist/store.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace poc::persist {

Lease::Lease(Lease &&other) noexcept
    : Root(std::move(other.Root)), Addr(other.Addr), Fd(std::exchange(other.Fd, -1)) {}

Lease &Lease::operator=(Lease &&other) noexcept {
  if (this != &other) {
    release();
    Root = std::move(other.Root);
    Addr = other.Addr;
    Fd = std::exchange(other.Fd, -1);
  }
  return *this;
}

void Lease::release() noexcept {
  if (Fd < 0)
    return;
  // While the lock is still ours: if the object was removed meanwhile, the
  // lock file is its last trace and nobody else can be using it.
  try {
    std::string file = (Root / Addr.relative_file()).string();
    detail::IoContext ctx{Addr.str(), file};
    detail::Walk w = detail::walk(Root, Addr, false, false, ctx);
    struct stat st;
    if (w.found && ::fstatat(w.parent(), w.leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 &&
        errno == ENOENT) {
      detail::remove_locked(w.parent(), detail::lock_name(w.leaf), Fd);
      detail::prune_empty(w, Addr);
    }
  } catch (...) {
    // Cleaning up is optional; giving the lease up is not.
  }
  ::close(Fd);
  Fd = -1;
}

namespace {

/// Locks the object's lock file. \returns the descriptor, or -1 with
/// \p holder describing the holder if it is held.
int acquire(const std::filesystem::path &root, bool durable, const Address &address,
            const std::string &file, std::string &holder) {
  detail::IoContext ctx{address.str(), file};
  return detail::with_restarts(ctx, [&] {
    detail::Walk w = detail::walk(root, address, true, durable, ctx);
    int fd = detail::lock(w.parent(), detail::lock_name(w.leaf), holder);
    if (fd == -2 && errno == ENOENT)
      throw detail::Restart{}; // the directory was pruned meanwhile
    if (fd == -2)
      detail::throw_io(ctx, "cannot lock", errno);
    return fd;
  });
}

} // namespace

std::optional<Lease> Store::try_lease(const Address &address) const {
  std::string holder;
  int fd = acquire(Root, Options.durable, address, file_of(address).string(), holder);
  if (fd < 0)
    return std::nullopt;
  return Lease(Root, address, fd);
}

Lease Store::lease(const Address &address) const {
  std::string holder;
  int fd = acquire(Root, Options.durable, address, file_of(address).string(), holder);
  if (fd < 0)
    throw store_error(store_errc::busy, address.str(),
                      "the object is active in another process (" + holder + ")");
  return Lease(Root, address, fd);
}

} // namespace poc::persist
