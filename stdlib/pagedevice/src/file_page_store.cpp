//===- file_page_store.cpp - Pages in one file, with direct I/O -----------===//
///
/// One large file per device (paper section 2.2). Page i lives at offset
/// i * stride, where stride is the page size rounded up to the 4 KiB
/// alignment, so every transfer is block aligned and can use O_DIRECT straight
/// into the page's AlignedBuffer. File systems that refuse O_DIRECT (tmpfs,
/// some network and overlay file systems) make open() fail with EINVAL; the
/// store then falls back to buffered I/O and says so through directIO().
///
//===----------------------------------------------------------------------===//

#include "page_store.hpp"

#include <cerrno>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace pocstd::detail {

namespace {
[[noreturn]] void fail(const std::string &what, const std::string &path) {
  throw std::system_error(errno, std::generic_category(), what + " " + path);
}

class FilePageStore final : public PageStore {
public:
  FilePageStore(const std::string &path, std::size_t pages, std::size_t pageSize, bool direct,
                OpenFile how)
      : path_(path), pageSize_(pageSize), stride_(roundUpToAlignment(pageSize)), direct_(direct) {
    // A restored device must find the pages it was saved with: creating an
    // empty file would silently turn them into zeros.
    int create = how == OpenFile::CreateOrReuse ? O_CREAT : 0;
    if (direct_)
      fd_ = ::open(path.c_str(), O_RDWR | create | O_DIRECT | O_CLOEXEC, 0600);
    if (!direct_ || (fd_ < 0 && errno == EINVAL)) {
      fd_ = ::open(path.c_str(), O_RDWR | create | O_CLOEXEC, 0600);
      direct_ = false;
    }
    if (fd_ < 0)
      fail(how == OpenFile::Existing ? "PageDevice: cannot open the page file of a saved device"
                                     : "PageDevice: cannot open",
           path);
    // Grow (never shrink) to the full size: a sparse file costs nothing until
    // written, and reads of unwritten pages return zeros instead of EOF.
    struct stat st{};
    if (::fstat(fd_, &st) != 0)
      closeAndFail("PageDevice: cannot stat", path);
    auto want = static_cast<off_t>(pages * stride_);
    if (st.st_size < want && how == OpenFile::Existing) {
      errno = EIO;
      closeAndFail("PageDevice: the page file of a saved device is shorter (" +
                       std::to_string(st.st_size) + " bytes) than its pages need (" +
                       std::to_string(want) + "):",
                   path);
    }
    if (st.st_size < want && ::ftruncate(fd_, want) != 0)
      closeAndFail("PageDevice: cannot size", path);
  }

  ~FilePageStore() override { ::close(fd_); }
  FilePageStore(const FilePageStore &) = delete;
  FilePageStore &operator=(const FilePageStore &) = delete;

  void read(std::size_t index, Page &into) override {
    into.resizeForOverwrite(pageSize_);
    // The buffer's capacity is the stride (AlignedBuffer rounds it up), so
    // the whole aligned extent fits.
    auto *p = reinterpret_cast<char *>(into.bytes());
    auto offset = static_cast<off_t>(index * stride_);
    std::size_t done = 0;
    while (done < stride_) {
      ssize_t n = ::pread(fd_, p + done, stride_ - done, offset + done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        fail("PageDevice: read failed on", path_);
      if (n == 0)
        throw std::system_error(EIO, std::generic_category(),
                                "PageDevice: unexpected end of file " + path_);
      done += static_cast<std::size_t>(n);
    }
  }

  void write(std::size_t index, const AlignedBuffer &from) override {
    const auto *p = reinterpret_cast<const char *>(from.data());
    auto offset = static_cast<off_t>(index * stride_);
    std::size_t done = 0;
    while (done < stride_) {
      ssize_t n = ::pwrite(fd_, p + done, stride_ - done, offset + done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        fail("PageDevice: write failed on", path_);
      done += static_cast<std::size_t>(n);
    }
  }

  // O_DIRECT writes bypass the page cache but may still sit in the disk's
  // volatile cache, and the blocks a write allocated in the sparse file are
  // metadata: fdatasync covers both.
  void flush() override {
    if (::fdatasync(fd_) != 0)
      fail("PageDevice: cannot flush", path_);
  }

  bool directIO() const override { return direct_; }

  // File pages are read and written by the device's process, which keeps
  // its disk work apart from its clients' computation.
  std::byte *sharedPage(std::size_t) override { return nullptr; }

private:
  /// Closes the file, keeping errno for the exception.
  [[noreturn]] void closeAndFail(const std::string &what, const std::string &path) {
    int saved = errno;
    ::close(fd_);
    errno = saved;
    fail(what, path);
  }

  std::string path_;
  std::size_t pageSize_;
  std::size_t stride_;
  int fd_ = -1;
  bool direct_;
};
} // namespace

std::unique_ptr<PageStore> makeFilePageStore(const std::string &path, std::size_t pages,
                                             std::size_t pageSize, bool direct, OpenFile how) {
  return std::make_unique<FilePageStore>(path, pages, pageSize, direct, how);
}

} // namespace pocstd::detail
