//===- persist/posix_io.hpp - Small POSIX helpers of the store (internal) -===//
//
// File descriptors with RAII and the read/write loops that partial transfers
// and EINTR require; every failure becomes a store_error(io) naming the
// object and the file.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace poc::persist::detail {

/// Owns one file descriptor; closes it on destruction.
class UniqueFd {
public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) noexcept : Fd(fd) {}
  UniqueFd(UniqueFd &&o) noexcept : Fd(o.release()) {}
  UniqueFd &operator=(UniqueFd &&o) noexcept;
  UniqueFd(const UniqueFd &) = delete;
  UniqueFd &operator=(const UniqueFd &) = delete;
  ~UniqueFd();

  int get() const noexcept { return Fd; }
  explicit operator bool() const noexcept { return Fd >= 0; }
  int release() noexcept {
    int fd = Fd;
    Fd = -1;
    return fd;
  }

private:
  int Fd = -1;
};

/// Context of an I/O failure for its message.
struct IoContext {
  const std::string &address;
  const std::string &file;
};

/// "<what> <file>: <strerror(err)>" as a store_error(io).
[[noreturn]] void throw_io(const IoContext &ctx, const char *what, int err);

/// Writes all of \p bytes to \p fd.
void write_all(int fd, std::span<const std::byte> bytes, const IoContext &ctx);

/// Reads \p out.size() bytes at \p offset; \returns how many were read
/// (fewer only at end of file).
std::size_t read_at(int fd, std::span<std::byte> out, std::size_t offset, const IoContext &ctx);

/// fsync (or fdatasync if \p data_only) with EINTR retry.
void sync_fd(int fd, bool data_only, const IoContext &ctx);

} // namespace poc::persist::detail
