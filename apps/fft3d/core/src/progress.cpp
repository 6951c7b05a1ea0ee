//===- progress.cpp - Where a restartable run has got to ------------------===//

#include "fft3d/progress.hpp"

#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <unistd.h>

namespace fft3d {

namespace {
constexpr const char* kMagic = "fft3d-progress";
constexpr int kVersion = 1;

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::system_error(errno, std::generic_category(), "fft3d: " + what + " " + path);
}

void writeAll(int fd, const std::string& data, const std::string& path) {
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      fail("cannot write", path);
    done += static_cast<std::size_t>(n);
  }
}
} // namespace

Progress advance(Progress p, int iterations) {
  if (++p.iteration >= iterations) {
    p.iteration = 0;
    if (++p.pass == 3) {
      p.pass = 0;
      ++p.transform;
    }
  }
  return p;
}

std::string runFingerprint(const Options& o) {
  std::ostringstream s;
  s << "size=" << o.size[0] << 'x' << o.size[1] << 'x' << o.size[2] << ",page=" << o.page[0]
    << 'x' << o.page[1] << 'x' << o.page[2] << ",servers=" << o.servers
    // An iteration number means different lines for another F.
    << ",ffts=" << o.ffts
    << ",direction=" << static_cast<int>(o.direction) << ",seed=" << o.seed;
  return s.str();
}

std::optional<Progress> ProgressFile::load() const {
  std::ifstream in(path_);
  if (!in) {
    if (!std::filesystem::exists(path_))
      return std::nullopt;
    throw std::runtime_error("fft3d: cannot read the progress record " + path_);
  }
  std::string magic, fingerprint;
  int version = 0, initialized = 0;
  Progress p;
  if (!(in >> magic >> version >> fingerprint >> initialized >> p.transform >> p.pass >>
        p.iteration) ||
      magic != kMagic || version != kVersion || initialized < 0 || initialized > 1 ||
      p.transform < 0 || p.transform > 1 || p.pass < 0 || p.pass > 2 || p.iteration < 0)
    throw std::runtime_error("fft3d: " + path_ + " is not a valid progress record");
  if (fingerprint != fingerprint_)
    throw std::runtime_error("fft3d: " + path_ + " records a run with other parameters (" +
                             fingerprint + "); resume with the same options, or start afresh "
                             "without --resume");
  p.initialized = initialized == 1;
  return p;
}

void ProgressFile::save(const Progress& p) const {
  std::ostringstream s;
  s << kMagic << ' ' << kVersion << ' ' << fingerprint_ << ' ' << (p.initialized ? 1 : 0) << ' '
    << p.transform << ' ' << p.pass << ' ' << p.iteration << '\n';
  std::string tmp = path_ + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    fail("cannot create", tmp);
  try {
    writeAll(fd, s.str(), tmp);
    if (::fsync(fd) != 0)
      fail("cannot sync", tmp);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path_.c_str()) != 0)
    fail("cannot replace", path_);
  std::string dir = std::filesystem::path(path_).parent_path().string();
  int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void ProgressFile::remove() const {
  std::error_code ec;
  std::filesystem::remove(path_, ec);
}

} // namespace fft3d
