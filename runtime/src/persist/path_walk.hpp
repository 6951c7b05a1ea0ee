//===- persist/path_walk.hpp - Walking from the root to a record (internal) ===//
//
// Paths below the store's root are walked one component at a time with
// openat() and O_NOFOLLOW, so nothing a store operation touches lies outside
// the root even if someone plants a symbolic link in it, and every step has a
// directory descriptor to create files in and to flush.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/persist/address.hpp"
#include "poc/persist/error.hpp"
#include "posix_io.hpp"

#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace poc::persist::detail {

/// Modes of what the store creates, whatever the umask (it only clears bits).
inline constexpr mode_t DirMode = 0700;
inline constexpr mode_t FileMode = 0600;

/// Thrown inside an operation to restart it: a directory on its way was
/// pruned by a concurrent remove().
struct Restart {};

/// Descriptors of the root and of each directory on the way to a record.
struct Walk {
  std::vector<UniqueFd> dirs; ///< dirs[0] the root, dirs[i] directory component i-1.
  std::string leaf;           ///< File name of the record in dirs.back().
  bool found = true;          ///< False if a directory is missing (never when creating).
  int parent() const { return dirs.back().get(); }
};

/// Walks from \p root to the directory of \p address, creating missing
/// directories (0700, each new entry flushed if \p durable) if \p create.
/// \throws Restart if a directory vanished meanwhile; store_error(io) if a
/// step is a symbolic link, not a directory, or a system call fails.
Walk walk(const std::filesystem::path &root, const Address &address, bool create, bool durable,
          const IoContext &ctx);

/// Removes the directories of \p w left empty, deepest first, never the
/// root; stops at the first that is not empty. Concurrent saves rely on
/// that order: they restart when a directory vanishes before they have
/// created their file in it.
void prune_empty(const Walk &w, const Address &address) noexcept;

/// How often an operation restarts before giving up; each restart means
/// another thread or process made progress.
inline constexpr int MaxRestarts = 1000;

/// Runs \p op, restarting it when it throws Restart.
template <class Op> auto with_restarts(const IoContext &ctx, Op &&op) {
  for (int i = 0;; ++i) {
    try {
      return op();
    } catch (const Restart &) {
      if (i == MaxRestarts)
        throw store_error(store_errc::io, ctx.address,
                          "directories of " + ctx.file +
                              " keep vanishing under concurrent removes");
    }
  }
}

} // namespace poc::persist::detail
