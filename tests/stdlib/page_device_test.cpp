#include "pocstd/array_device.hpp"
#include "pocstd/array_page_device.hpp"
#include "pocstd/local_pages.hpp"
#include "pocstd/page_device.hpp"
#include "serialized.hpp"

#include <poc/serialize.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace pocstd;

namespace {
/// A fresh directory under \p parent, removed afterwards.
class TempDir {
public:
  explicit TempDir(const std::string &parent = fs::temp_directory_path().string()) {
    std::string templ = parent + "/pocstd-test-XXXXXX";
    if (::mkdtemp(templ.data()) == nullptr)
      throw std::system_error(errno, std::generic_category(), "mkdtemp");
    path_ = templ;
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string file(const std::string &name) const { return (path_ / name).string(); }

private:
  fs::path path_;
};

Page filled(std::size_t n, unsigned char seed) {
  Page p(n);
  for (std::size_t i = 0; i < n; ++i)
    p.bytes()[i] = std::byte(static_cast<unsigned char>(seed + i * 7));
  return p;
}

bool sameBytes(const Page &a, const Page &b) {
  return a.size() == b.size() && std::memcmp(a.bytes(), b.bytes(), a.size()) == 0;
}

void roundTrip(PageDevice &dev) {
  Page a = filled(dev.PageSize(), 1), b = filled(dev.PageSize(), 99);
  dev.write(a, 0);
  dev.write(b, dev.NumberOfPages() - 1);
  Page r;
  dev.read(r, dev.NumberOfPages() - 1);
  EXPECT_TRUE(sameBytes(r, b));
  dev.read(r, 0);
  EXPECT_TRUE(sameBytes(r, a));
  // Never written: zeros.
  dev.read(r, 1);
  ASSERT_EQ(r.size(), dev.PageSize());
  for (std::size_t i = 0; i < r.size(); ++i)
    ASSERT_EQ(r.bytes()[i], std::byte{0});
  DeviceStats s = dev.stats();
  EXPECT_EQ(s.pages_written, 2u);
  EXPECT_EQ(s.pages_read, 3u);
  EXPECT_EQ(s.bytes_read, 3 * dev.PageSize());
}
} // namespace

TEST(PageDevice, MemoryRoundTrip) {
  PageDevice dev(Storage::memory(), 4, 1000);
  EXPECT_FALSE(dev.directIO());
  roundTrip(dev);
}

TEST(PageDevice, FileRoundTripWithDirectIO) {
  TempDir dir;
  PageDevice dev(Storage::file(dir.file("dev")), 5, 8192);
  roundTrip(dev);
  // /tmp is an ordinary disk file system here; direct I/O is expected
  // unless the test machine's temp dir is tmpfs.
  std::cout << "direct I/O on " << fs::temp_directory_path() << ": "
            << (dev.directIO() ? "yes" : "no") << "\n";
}

TEST(PageDevice, FileUnalignedPageSize) {
  TempDir dir;
  PageDevice dev(Storage::file(dir.file("dev")), 3, 1000);
  roundTrip(dev);
}

TEST(PageDevice, FileKeepsDataAcrossReopen) {
  TempDir dir;
  Page a = filled(4096, 5);
  {
    PageDevice dev(Storage::file(dir.file("dev")), 2, 4096);
    dev.write(a, 1);
  }
  PageDevice dev(Storage::file(dir.file("dev")), 2, 4096);
  Page r;
  dev.read(r, 1);
  EXPECT_TRUE(sameBytes(r, a));
}

TEST(PageDevice, BufferedFileWhenDirectIOIsOff) {
  TempDir dir;
  PageDevice dev(Storage::file(dir.file("dev"), /*direct_io=*/false), 3, 4096);
  EXPECT_FALSE(dev.directIO());
  roundTrip(dev);
}

TEST(PageDevice, WorksOnTmpfs) {
  // Older kernels refuse O_DIRECT on tmpfs (the store then falls back to
  // buffered I/O), newer ones accept it: either way the device works.
  if (!fs::is_directory("/dev/shm"))
    GTEST_SKIP() << "no tmpfs at /dev/shm";
  TempDir dir("/dev/shm");
  PageDevice dev(Storage::file(dir.file("dev")), 3, 4096);
  roundTrip(dev);
}

TEST(PageDevice, BadArgumentsAreClearErrors) {
  EXPECT_THROW(PageDevice(Storage::memory(), 0, 10), std::invalid_argument);
  EXPECT_THROW(PageDevice(Storage::memory(), 1, 0), std::invalid_argument);
  EXPECT_THROW(PageDevice(Storage::file("/nonexistent-dir/x"), 1, 10), std::system_error);
  PageDevice dev(Storage::memory(), 2, 100);
  Page p(100), wrong(99);
  EXPECT_THROW(dev.write(p, 2), std::out_of_range);
  EXPECT_THROW(dev.read(p, 7), std::out_of_range);
  EXPECT_THROW(dev.write(wrong, 0), page_error);
  EXPECT_THAT([&] { dev.read(p, 9); },
              testing::ThrowsMessage<std::out_of_range>(testing::HasSubstr("page index 9")));
}

TEST(ArrayPageDevice, TransposingReadsAndWrites) {
  ArrayPageDevice dev(Storage::memory(), 2, 3, 4, 5);
  ArrayPage p(3, 4, 5);
  for (std::size_t i = 0; i < p.elements(); ++i)
    p.data()[i] = {double(i), 1.0};
  dev.write(p, 1);
  ArrayPage t;
  dev.read_transpose13(t, 1);
  ASSERT_EQ(t.n1(), 5);
  EXPECT_EQ(t.at(4, 3, 2), p.at(2, 3, 4));
  dev.write_transpose13(t, 0);
  ArrayPage back;
  dev.read(back, 0);
  back.setShape(3, 4, 5);
  EXPECT_EQ(std::memcmp(back.bytes(), p.bytes(), p.size()), 0);
  dev.read_transpose23(t, 1);
  ASSERT_EQ(t.n2(), 5);
  EXPECT_EQ(t.at(2, 4, 3), p.at(2, 3, 4));
  dev.write_transpose23(t, 0);
  dev.read(back, 0);
  EXPECT_EQ(std::memcmp(back.bytes(), p.bytes(), p.size()), 0);
  // A page of the untransposed shape is refused by a transposing write.
  EXPECT_THROW(dev.write_transpose13(p, 0), page_error);
}

TEST(PersistentDevice, SavedStateReopensTheFileWithItsPages) {
  TempDir dir;
  ArrayPage p(4, 2, 3);
  p.at(3, 1, 2) = {5, -6};
  ArrayDevice restored;
  {
    ArrayDevice dev(Storage::file(dir.file("dev")), 3, 4, 2, 3, /*Nc=*/2);
    dev.write(p, 2);
    dev.ReadIntoCache(2);
    serialized::writeAndRead(dev, restored);
  }
  EXPECT_EQ(restored.storage().path, dir.file("dev"));
  EXPECT_EQ(restored.NumberOfPages(), 3u);
  EXPECT_EQ(restored.PageSize(), ArrayPage::bytesFor(4, 2, 3));
  EXPECT_EQ(restored.n1(), 4);
  EXPECT_EQ(restored.NumberOfCachePages(), 2);
  EXPECT_EQ(restored.CachedPages(), 0u); // the cache is not state
  ArrayPage t;
  restored.read_transpose13(t, 2);
  EXPECT_EQ(t.at(2, 1, 3), std::complex<double>(5, -6));
  restored.Flush();
}

TEST(PersistentDevice, UnopenedDeviceRefusesEveryTransfer) {
  ArrayDevice dev;
  Page p;
  EXPECT_EQ(dev.NumberOfPages(), 0u);
  EXPECT_FALSE(dev.directIO());
  EXPECT_THROW(dev.read(p, 0), std::out_of_range);
  EXPECT_THROW(dev.ReadIntoCache(0), std::out_of_range);
  dev.Flush(); // nothing to flush
}

TEST(PersistentDevice, MemoryDeviceCannotBeSaved) {
  PageDevice dev(Storage::memory(), 2, 100);
  poc::Writer w;
  EXPECT_THROW(w.write(dev), std::logic_error);
}

TEST(PersistentDevice, MissingOrShortFileIsRefusedNotRecreated) {
  TempDir dir;
  PageDevice restored;
  {
    PageDevice dev(Storage::file(dir.file("dev")), 4, 4096);
    fs::remove(dir.file("dev"));
    EXPECT_THROW(serialized::writeAndRead(dev, restored), std::system_error);
  }
  EXPECT_FALSE(fs::exists(dir.file("dev")));
  {
    PageDevice dev(Storage::file(dir.file("dev")), 4, 4096);
    fs::resize_file(dir.file("dev"), 4096);
    try {
      serialized::writeAndRead(dev, restored);
      FAIL() << "a truncated page file was accepted";
    } catch (const std::system_error &e) {
      EXPECT_NE(std::string(e.what()).find("shorter"), std::string::npos) << e.what();
    }
  }
}

TEST(PersistentDevice, CorruptSavedStateIsADecodeError) {
  TempDir dir;
  std::ofstream(dir.file("dev")).close();
  fs::resize_file(dir.file("dev"), 4096); // one page's stride
  auto load = [](auto &&...fields) {
    poc::Writer w;
    w.write_all(fields...);
    poc::Reader r(w.bytes(), nullptr);
    ArrayDevice into;
    r.read(into);
  };
  // A memory medium, a zero page count, a shape that does not match the
  // page size, a negative cache.
  EXPECT_THROW(load(Storage::memory(), std::size_t{1}, std::size_t{16}, 1, 1, 1, 0),
               poc::decode_error);
  EXPECT_THROW(load(Storage::file(dir.file("dev")), std::size_t{0}, std::size_t{16}, 1, 1, 1, 0),
               poc::decode_error);
  EXPECT_THROW(load(Storage::file(dir.file("dev")), std::size_t{1}, std::size_t{16}, 2, 1, 1, 0),
               poc::decode_error);
  EXPECT_THROW(load(Storage::file(dir.file("dev")), std::size_t{1}, std::size_t{16}, 1, 1, 1, -1),
               poc::decode_error);
}

TEST(LocalPages, AFileDeviceIsNotShared) {
  // Its process does the disk work, apart from its clients' computation.
  TempDir dir;
  ArrayDevice dev(Storage::file(dir.file("shared")), 2, 2, 2, 2, 0);
  EXPECT_FALSE(LocalPages::of(&dev));
}

// The cache of a file ArrayDevice loads on a thread of its own (page_cache):
// what the process sees must be as if it had read in order.
TEST(ArrayDeviceCache, AWriteDuringALoadWins) {
  TempDir dir;
  ArrayDevice dev(Storage::file(dir.file("cache")), 4, 8, 8, 8, 4);
  ArrayPage old(8, 8, 8), fresh(8, 8, 8);
  for (std::size_t i = 0; i < old.elements(); ++i) {
    old.data()[i] = {1, 0};
    fresh.data()[i] = {2, 0};
  }
  dev.write(old, 0);
  dev.ReadIntoCache(0); // the load of the old page may still run...
  dev.write(fresh, 0);  // ...the write waits for it and drops it
  ArrayPage r;
  dev.read(r, 0);
  EXPECT_EQ(r.data()[0], std::complex<double>(2, 0));
  DeviceStats s = dev.stats();
  EXPECT_EQ(s.cache_hits, 0u);
  EXPECT_EQ(s.cache_fills, 1u);
}

TEST(ArrayDeviceCache, AFailedLoadIsTheReadsError) {
  TempDir dir;
  std::string file = dir.file("short");
  ArrayDevice dev(Storage::file(file), 2, 8, 8, 8, 2);
  ASSERT_EQ(::truncate(file.c_str(), 0), 0); // the pages are gone from the medium
  dev.ReadIntoCache(1);
  ArrayPage r;
  try {
    dev.read(r, 1);
    FAIL() << "a read of a page whose load failed returned";
  } catch (const std::system_error &e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("unexpected end of file"));
  }
  EXPECT_EQ(dev.CachedPages(), 0u);
}

TEST(ArrayDeviceCache, DestroyedWithLoadsPending) {
  TempDir dir;
  auto dev = std::make_unique<ArrayDevice>(Storage::file(dir.file("many")), 64, 8, 8, 8, 64);
  for (std::size_t i = 0; i < 64; ++i)
    dev->ReadIntoCache(i);
  EXPECT_LE(dev->CachedPages(), 64u);
  dev.reset(); // stops the loads not started, waits for the one running
}
