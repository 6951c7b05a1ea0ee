//===- persist/path_walk.cpp - Walking from the root to a record ----------===//
#include "path_walk.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace poc::persist::detail {

namespace {

/// Opens the root, creating it and its parents (0700) if \p create.
/// \returns an invalid descriptor if it does not exist and !create.
UniqueFd open_root(const fs::path &root, bool create, const IoContext &ctx) {
  for (int attempt = 0;; ++attempt) {
    UniqueFd fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd)
      return fd;
    if (errno != ENOENT)
      throw_io(ctx, "cannot open store directory", errno);
    if (!create)
      return UniqueFd();
    if (attempt > 0)
      throw_io(ctx, "cannot create store directory", ENOENT);
    fs::path prefix;
    for (const fs::path &part : root) {
      prefix /= part;
      if (::mkdir(prefix.c_str(), DirMode) != 0 && errno != EEXIST)
        throw_io(ctx, ("cannot create directory " + prefix.string() + " for").c_str(), errno);
    }
  }
}

} // namespace

Walk walk(const fs::path &root, const Address &address, bool create, bool durable,
          const IoContext &ctx) {
  Walk w;
  auto comps = address.components();
  w.leaf = std::string(comps.back()) + std::string(Address::file_suffix);
  w.dirs.push_back(open_root(root, create, ctx));
  if (!w.dirs.back()) {
    w.found = false;
    return w;
  }
  for (std::size_t i = 0; i + 1 < comps.size(); ++i) {
    std::string name(comps[i]);
    int parent = w.parent();
    UniqueFd fd(::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd && errno == ENOENT && create) {
      if (::mkdirat(parent, name.c_str(), DirMode) == 0) {
        if (durable)
          sync_fd(parent, false, ctx);
      } else if (errno == ENOENT) {
        throw Restart{}; // parent itself was pruned
      } else if (errno != EEXIST) {
        throw_io(ctx, ("cannot create directory '" + name + "' for").c_str(), errno);
      }
      fd =
          UniqueFd(::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (!fd && errno == ENOENT)
        throw Restart{};
    }
    if (!fd) {
      if (errno == ENOENT) {
        w.found = false;
        return w;
      }
      if (errno == ENOTDIR || errno == ELOOP)
        throw store_error(store_errc::io, ctx.address,
                          "'" + name + "' on the way to " + ctx.file +
                              " is not a directory (symbolic links are not followed)");
      throw_io(ctx, ("cannot open directory '" + name + "' for").c_str(), errno);
    }
    w.dirs.push_back(std::move(fd));
  }
  return w;
}

void prune_empty(const Walk &w, const Address &address) noexcept {
  auto comps = address.components();
  for (std::size_t i = w.dirs.size() - 1; i >= 1; --i) {
    std::string name(comps[i - 1]);
    if (::unlinkat(w.dirs[i - 1].get(), name.c_str(), AT_REMOVEDIR) != 0)
      break;
  }
}

} // namespace poc::persist::detail
