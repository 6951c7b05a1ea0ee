//===- persist/lock_file.hpp - Per-object lock files (internal) -----------===//
//
// A lease on an object is an open file description holding an exclusive
// fcntl OFD lock on ".<name>.pobj.lock" next to the record. OFD locks belong
// to the open file description, not the process, so two leases in one
// process conflict like two in different processes, and the kernel drops
// the lock when its holder dies, kill -9 included.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>

namespace poc::persist::detail {

/// The lock file's name for the record file name \p leaf ("x.pobj").
std::string lock_name(std::string_view leaf);

/// Whether \p name is a lock file's name.
bool is_lock_name(std::string_view name);

/// Opens (creating 0600) and locks \p name in directory \p dirfd and writes
/// the holder's description into it. \returns the locked descriptor, or -1
/// with \p holder set to the current holder's description if another open
/// file description holds the lock. Retries if the file is replaced
/// meanwhile. \returns -2 with errno set on a system error.
int lock(int dirfd, const std::string &name, std::string &holder);

/// Deletes lock file \p name in \p dirfd unless it is locked.
/// \returns whether it was deleted. Never throws.
bool remove_if_unlocked(int dirfd, const std::string &name) noexcept;

/// Deletes lock file \p name in \p dirfd if it is still the file that the
/// locked descriptor \p fd refers to. \returns whether it was deleted.
bool remove_locked(int dirfd, const std::string &name, int fd) noexcept;

} // namespace poc::persist::detail
