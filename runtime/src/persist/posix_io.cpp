//===- persist/posix_io.cpp - Small POSIX helpers of the store ------------===//
#include "posix_io.hpp"

#include "poc/persist/error.hpp"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace poc::persist::detail {

UniqueFd &UniqueFd::operator=(UniqueFd &&o) noexcept {
  if (this != &o) {
    if (Fd >= 0)
      ::close(Fd);
    Fd = o.release();
  }
  return *this;
}

UniqueFd::~UniqueFd() {
  if (Fd >= 0)
    ::close(Fd);
}

void throw_io(const IoContext &ctx, const char *what, int err) {
  throw store_error(store_errc::io, ctx.address,
                    std::string(what) + " " + ctx.file + ": " + std::strerror(err));
}

void write_all(int fd, std::span<const std::byte> bytes, const IoContext &ctx) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR)
        continue;
      throw_io(ctx, "cannot write", errno);
    }
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
}

std::size_t read_at(int fd, std::span<std::byte> out, std::size_t offset, const IoContext &ctx) {
  std::size_t done = 0;
  while (done < out.size()) {
    ssize_t n =
        ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR)
        continue;
      throw_io(ctx, "cannot read", errno);
    }
    if (n == 0)
      break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

void sync_fd(int fd, bool data_only, const IoContext &ctx) {
  while ((data_only ? ::fdatasync(fd) : ::fsync(fd)) != 0) {
    if (errno != EINTR)
      throw_io(ctx, "cannot flush", errno);
  }
}

} // namespace poc::persist::detail
