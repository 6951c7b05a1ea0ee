//===- disk_bandwidth.cpp - The disk's direct-I/O limit -------------------===//
///
/// The baseline of the out-of-core benchmark: writes, then reads back, a
/// file of the given size in pages of the given size through the same
/// PageDevice the page servers use (O_DIRECT, one page at a time), and
/// reports each bandwidth and the combined read+write rate an FFT pass could
/// reach at best (it reads and writes every byte once).
///
/// usage: disk_bandwidth DIR BYTES PAGE_BYTES
/// prints: "disk DIR: write W MB/sec, read R MB/sec, read+write RW MB/sec (direct I/O yes)"
///
//===----------------------------------------------------------------------===//

#include "pocstd/page_device.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <string>

int main(int argc, char **argv) {
  if (argc != 4) {
    fmt::print(stderr, "usage: disk_bandwidth DIR BYTES PAGE_BYTES\n");
    return 2;
  }
  std::string file = std::string(argv[1]) + "/disk-bandwidth.pages";
  std::size_t bytes = std::strtoull(argv[2], nullptr, 10);
  std::size_t pageBytes = std::strtoull(argv[3], nullptr, 10);
  if (bytes == 0 || pageBytes == 0 || pageBytes > bytes) {
    fmt::print(stderr, "disk_bandwidth: need 0 < PAGE_BYTES <= BYTES\n");
    return 2;
  }
  std::size_t pages = bytes / pageBytes;
  try {
    using Clock = std::chrono::steady_clock;
    double write = 0, read = 0;
    bool direct = false;
    {
      pocstd::PageDevice dev(pocstd::Storage::file(file), pages, pageBytes);
      direct = dev.directIO();
      pocstd::Page page(pageBytes);
      for (std::size_t i = 0; i < pageBytes; i += 4096)
        page.bytes()[i] = std::byte{1};
      auto t0 = Clock::now();
      for (std::size_t i = 0; i < pages; ++i)
        dev.write(page, i);
      write = std::chrono::duration<double>(Clock::now() - t0).count();
      t0 = Clock::now();
      for (std::size_t i = 0; i < pages; ++i)
        dev.read(page, i);
      read = std::chrono::duration<double>(Clock::now() - t0).count();
    }
    std::filesystem::remove(file);
    double mib = double(pages * pageBytes) / (1024.0 * 1024.0);
    fmt::print("disk {}: write {:.6g} MB/sec, read {:.6g} MB/sec, read+write {:.6g} MB/sec "
               "(direct I/O {})\n",
               argv[1], mib / write, mib / read, 2 * mib / (write + read), direct ? "yes" : "no");
  } catch (const std::exception &e) {
    std::filesystem::remove(file);
    fmt::print(stderr, "disk_bandwidth: {}\n", e.what());
    return 1;
  }
  return 0;
}
