//===- bench/persist/persist_bench.cpp - Store save/load cost -------------===//
//
// Each store operation is paired with a baseline doing the least the same
// job needs at the system-call level, on the same file system:
//
//   Save/durable    vs RawWrite/durable:  open, pwrite over the old bytes, fdatasync, close
//   Save/volatile   vs RawWrite/volatile: open, pwrite over the old bytes, close
//   Load            vs RawRead:           open, fstat, read, close
//   SaveMany/all    vs SaveMany/each:     N durable 4 KiB saves as one save_all
//
// The baseline overwrites the file in place, the cheapest update there is,
// and not crash-safe (a kill mid-write leaves old and new bytes mixed); the
// ratio is the price of atomic replacement (new file, rename, directory
// flush), the header and both checksums. (Truncating and rewriting would be
// no fairer a baseline: ext4 then flushes on close by itself.) Files live under
// $POC_BENCH_DIR (default $TMPDIR, else /tmp); use a disk, not tmpfs.
//
//===----------------------------------------------------------------------===//
#include "poc/persist/store.hpp"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace poc::persist;
namespace fs = std::filesystem;

namespace {

/// A scratch directory for the whole run, removed at exit.
const fs::path &bench_dir() {
  static const fs::path dir = [] {
    const char *base = std::getenv("POC_BENCH_DIR");
    if (!base || !*base)
      base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/poc-persist-bench-XXXXXX";
    if (!::mkdtemp(pattern.data()))
      std::abort();
    return fs::path(pattern);
  }();
  return dir;
}

struct Cleanup {
  ~Cleanup() {
    std::error_code ec;
    fs::remove_all(bench_dir(), ec);
  }
} cleanup;

std::vector<std::byte> payload(std::size_t n) {
  std::vector<std::byte> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<std::byte>(i * 131 + 7);
  return v;
}

void check(bool ok, benchmark::State &state, const char *what) {
  if (!ok)
    state.SkipWithError(what);
}

void BM_Save(benchmark::State &state, bool durable) {
  Store store(bench_dir() / (durable ? "durable" : "volatile"), StoreOptions{.durable = durable});
  auto data = payload(static_cast<std::size_t>(state.range(0)));
  auto addr = Address::parse("bench/save/object");
  for (auto _ : state)
    store.save(addr, "bench::Object", 1, data);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
}

void BM_RawWrite(benchmark::State &state, bool durable) {
  fs::create_directories(bench_dir() / "raw");
  std::string file = (bench_dir() / "raw" / ("object" + std::to_string(state.range(0)))).string();
  auto data = payload(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    bool ok =
        fd >= 0 && ::pwrite(fd, data.data(), data.size(), 0) == static_cast<ssize_t>(data.size());
    if (durable)
      ok = ok && ::fdatasync(fd) == 0;
    ok = ::close(fd) == 0 && ok;
    check(ok, state, "raw write failed");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
}

void BM_Load(benchmark::State &state) {
  Store store(bench_dir() / "load", StoreOptions{.durable = false});
  auto data = payload(static_cast<std::size_t>(state.range(0)));
  auto addr = Address::parse("bench/load/object");
  store.save(addr, "bench::Object", 1, data);
  for (auto _ : state) {
    Record r = store.load(addr, "bench::Object", 1);
    benchmark::DoNotOptimize(r.payload.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
}

void BM_RawRead(benchmark::State &state) {
  fs::create_directories(bench_dir() / "rawread");
  std::string file = (bench_dir() / "rawread" / "object").string();
  auto data = payload(static_cast<std::size_t>(state.range(0)));
  {
    int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    check(fd >= 0 && ::write(fd, data.data(), data.size()) == static_cast<ssize_t>(data.size()),
          state, "setup write failed");
    ::close(fd);
  }
  for (auto _ : state) {
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st;
    bool ok = fd >= 0 && ::fstat(fd, &st) == 0;
    std::vector<std::byte> out(static_cast<std::size_t>(st.st_size));
    ok = ok && ::read(fd, out.data(), out.size()) == static_cast<ssize_t>(out.size());
    ok = ::close(fd) == 0 && ok;
    benchmark::DoNotOptimize(out.data());
    check(ok, state, "raw read failed");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
}

/// Saving N objects of 4 KiB durably: one at a time (baseline) or with one
/// save_all (two file-system flushes in all), as at shutdown.
void BM_SaveMany(benchmark::State &state, bool batch) {
  Store store(bench_dir() / (batch ? "many-batch" : "many-single"));
  auto data = payload(4096);
  std::span<const std::byte> parts[] = {data};
  std::vector<Store::SaveItem> items;
  for (std::int64_t i = 0; i < state.range(0); ++i)
    items.push_back({Address::parse("many/obj" + std::to_string(i)), "bench::Object", 1, parts});
  for (auto _ : state) {
    if (batch)
      store.save_all(items);
    else
      for (const Store::SaveItem &item : items)
        store.save_parts(item.address, item.class_name, item.layout_hash, item.parts);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * state.range(0) * 4096);
}

void Sizes(benchmark::internal::Benchmark *b) {
  for (std::int64_t n : {64, 4 << 10, 64 << 10, 1 << 20, 16 << 20})
    b->Arg(n);
  b->Unit(benchmark::kMicrosecond);
}

BENCHMARK_CAPTURE(BM_Save, durable, true)->Apply(Sizes);
BENCHMARK_CAPTURE(BM_RawWrite, durable, true)->Apply(Sizes);
BENCHMARK_CAPTURE(BM_Save, volatile, false)->Apply(Sizes);
BENCHMARK_CAPTURE(BM_RawWrite, volatile, false)->Apply(Sizes);
BENCHMARK(BM_Load)->Apply(Sizes);
BENCHMARK_CAPTURE(BM_SaveMany, all, true)->Arg(16)->Arg(256)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SaveMany, each, false)->Arg(16)->Arg(256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RawRead)->Apply(Sizes);

} // namespace

BENCHMARK_MAIN();
