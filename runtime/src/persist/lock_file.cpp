//===- persist/lock_file.cpp - Per-object lock files ----------------------===//
#include "lock_file.hpp"

#include "path_walk.hpp"
#include "poc/persist/address.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace poc::persist::detail {

namespace {

constexpr std::string_view LockSuffix = ".lock";

/// Takes the exclusive OFD lock on all of \p fd without waiting.
bool try_lock_fd(int fd) {
  struct flock fl{};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  return ::fcntl(fd, F_OFD_SETLK, &fl) == 0;
}

/// Whether \p fd is still the file named \p name in \p dirfd: a lock on a
/// file someone unlinked meanwhile protects nothing.
bool still_named(int dirfd, const std::string &name, int fd) {
  struct stat mine, current;
  return ::fstat(fd, &mine) == 0 &&
         ::fstatat(dirfd, name.c_str(), &current, AT_SYMLINK_NOFOLLOW) == 0 &&
         mine.st_dev == current.st_dev && mine.st_ino == current.st_ino;
}

std::string describe_self() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0)
    host[0] = '\0';
  return "pid " + std::to_string(::getpid()) + " on " + (host[0] ? host : "unknown host");
}

std::string read_holder(int fd) {
  char buf[300];
  ssize_t n = ::pread(fd, buf, sizeof buf, 0);
  std::string text = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0'))
    text.pop_back();
  return text.empty() ? "another process" : text;
}

} // namespace

std::string lock_name(std::string_view leaf) {
  return "." + std::string(leaf) + std::string(LockSuffix);
}

bool is_lock_name(std::string_view name) {
  if (!name.starts_with('.') || !name.ends_with(LockSuffix))
    return false;
  name = name.substr(1, name.size() - 1 - LockSuffix.size());
  return name.ends_with(Address::file_suffix) && name.find('/') == std::string_view::npos &&
         Address::check(name.substr(0, name.size() - Address::file_suffix.size())).empty();
}

int lock(int dirfd, const std::string &name, std::string &holder) {
  for (int attempt = 0; attempt < MaxRestarts; ++attempt) {
    UniqueFd fd(::openat(dirfd, name.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, FileMode));
    if (!fd)
      return -2;
    if (!try_lock_fd(fd.get())) {
      if (errno != EAGAIN && errno != EACCES)
        return -2;
      holder = read_holder(fd.get());
      return -1;
    }
    if (!still_named(dirfd, name, fd.get()))
      continue; // released and deleted by its last holder meanwhile; take the new one
    std::string me = describe_self() + "\n";
    if (::ftruncate(fd.get(), 0) != 0 || ::pwrite(fd.get(), me.data(), me.size(), 0) < 0)
      return -2;
    return fd.release();
  }
  errno = EAGAIN;
  return -2;
}

bool remove_if_unlocked(int dirfd, const std::string &name) noexcept {
  UniqueFd fd(::openat(dirfd, name.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC));
  return fd && try_lock_fd(fd.get()) && remove_locked(dirfd, name, fd.get());
}

bool remove_locked(int dirfd, const std::string &name, int fd) noexcept {
  return still_named(dirfd, name, fd) && ::unlinkat(dirfd, name.c_str(), 0) == 0;
}

} // namespace poc::persist::detail
