// Pages sent from where they lie (docs/stdlib.md, "Pages"): a memory
// PageDevice lends its own page to a read, and its server's reply sends that
// page, held by reference count, without copying it or waiting for the send.
// Under mpirun -n 2..4 a client on every rank reads pages of every size
// class from a device on the last rank while the pages are rewritten, taken
// out of a caching device's cache, and while the device itself is deleted;
// every read must return one whole version of its page, the one written
// last before the read. Started calls whose arguments are moved must
// deliver exactly what was moved, and those given an lvalue what it held
// when the call started. Prints FAIL and exits 1 on any difference.

#include <pocstd/array_device.hpp>
#include <pocstd/page_device.hpp>

#include <poc/poc.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

/// Every size class of the message path: inline in a message, a message
/// larger than a posted receive, out of band from the threshold on, the
/// sizes the page buffers' thread cache keeps, and beyond it. Multiples of
/// 16 bytes, so that a caching ArrayDevice (complex elements) holds them.
constexpr std::size_t kSizes[] = {16,         4096,        20000 / 16 * 16,      64 * 1024,
                                  512 * 1024, 1024 * 1024, 5 * 1024 * 1024 + 160};
/// Pages each client owns on each device.
constexpr std::size_t kPagesPerClient = 3;
constexpr int kRounds = 3;

/// Byte `i` of version `version` of page `index`: the first 8 bytes are the
/// version and the index, the rest a pattern of all three, so a page made
/// of two versions, or of another page, is told apart.
std::uint8_t pattern(std::uint32_t index, std::uint32_t version, std::size_t i) {
  return static_cast<std::uint8_t>(index * 131 + version * 31 + i * 7 + (i >> 8));
}

pocstd::Page make_page(std::size_t size, std::uint32_t index, std::uint32_t version) {
  pocstd::Page p(size);
  std::byte *b = p.bytes();
  for (std::size_t i = 0; i < size; ++i)
    b[i] = std::byte{pattern(index, version, i)};
  std::memcpy(b, &version, 4);
  std::memcpy(b + 4, &index, 4);
  return p;
}

/// Empty if `p` is exactly version `version` of page `index`, else what differs.
std::string check_page(const pocstd::Page &p, std::size_t size, std::uint32_t index,
                       std::uint32_t version) {
  if (p.size() != size)
    return "size " + std::to_string(p.size()) + " instead of " + std::to_string(size);
  std::uint32_t v = 0, i = 0;
  const std::byte *b = p.bytes();
  std::memcpy(&v, b, 4);
  std::memcpy(&i, b + 4, 4);
  if (v != version || i != index)
    return "page " + std::to_string(i) + " version " + std::to_string(v) + " instead of page " +
           std::to_string(index) + " version " + std::to_string(version);
  for (std::size_t k = 8; k < size; ++k)
    if (b[k] != std::byte{pattern(index, version, k)})
      return "byte " + std::to_string(k) + " of page " + std::to_string(index) + " version " +
             std::to_string(version) + " differs (a torn page)";
  return {};
}

std::vector<std::byte> make_bytes(std::size_t size, std::uint32_t seed) {
  std::vector<std::byte> v(size);
  for (std::size_t i = 0; i < size; ++i)
    v[i] = std::byte{pattern(seed, seed, i)};
  return v;
}

void expect(const std::string &failure, const std::string &where) {
  if (!failure.empty())
    throw std::runtime_error(where + ": " + failure);
}

} // namespace

/// Receives started calls' byte vectors and checks them.
class Sink {
public:
  /// `bytes` must be make_bytes(size, seed).
  void take(std::vector<std::byte> bytes, std::uint64_t size, std::uint32_t seed) {
    if (bytes != make_bytes(size, seed))
      ++bad_;
    ++taken_;
  }
  std::uint64_t taken() const { return taken_; }
  std::uint64_t bad() const { return bad_; }

private:
  std::uint64_t taken_ = 0, bad_ = 0;
};

/// One client: reads and rewrites its own pages of each device.
class Client {
public:
  explicit Client(int id) : id_(id) {}

  /// Every read of this client's pages of `plain` and `cached` (devices of
  /// `size`-byte pages, `pages_per_client` pages per client) returns the
  /// version written last before it, whole. Throws on a difference.
  void exercise(pocstd::PageDevice *plain, pocstd::ArrayDevice *cached, std::uint64_t size,
                Sink *sink) {
    const std::uint32_t first = static_cast<std::uint32_t>(id_ * kPagesPerClient);
    std::uint32_t version = 1;
    for (std::uint32_t k = 0; k < kPagesPerClient; ++k) {
      plain->write(make_page(size, first + k, version), first + k);
      cached->write(make_page(size, first + k, version), first + k);
    }
    for (int round = 0; round < kRounds; ++round, ++version) {
      // Reads started before the rewrite of their page: each reply has left
      // the server (lent, unreceived) when the rewrite arrives.
      std::deque<pocstd::Page> seen(2 * kPagesPerClient);
      std::vector<poc::future<void>> reads;
      for (std::uint32_t k = 0; k < kPagesPerClient; ++k) {
        cached->ReadIntoCache(first + k);
        reads.push_back(start plain->read(seen[k], first + k));
        // Served from the cache: the page leaves it as it is sent.
        reads.push_back(start cached->read(seen[kPagesPerClient + k], first + k));
        start plain->write(make_page(size, first + k, version + 1), first + k);
        start cached->write(make_page(size, first + k, version + 1), first + k);
        // Loads the new version into the cache while the old one is sent.
        cached->ReadIntoCache(first + k);
      }
      for (auto &r : reads)
        r.get();
      for (std::uint32_t k = 0; k < kPagesPerClient; ++k) {
        expect(check_page(seen[k], size, first + k, version), "a read before a rewrite");
        expect(check_page(seen[kPagesPerClient + k], size, first + k, version),
               "a cached read before a rewrite");
        pocstd::Page now;
        plain->read(now, first + k);
        expect(check_page(now, size, first + k, version + 1), "a read after a rewrite");
        cached->read(now, first + k);
        expect(check_page(now, size, first + k, version + 1), "a cached read after a rewrite");
      }
      // Moved arguments, and an lvalue changed as soon as its call started.
      const std::uint32_t seed = static_cast<std::uint32_t>(id_ * 1000 + round);
      start sink->take(make_bytes(size, seed), size, seed);
      std::vector<std::byte> moved = make_bytes(size, seed + 1);
      start sink->take(std::move(moved), size, seed + 1);
      std::vector<std::byte> kept = make_bytes(size, seed + 2);
      start sink->take(kept, size, seed + 2);
      kept.assign(kept.size(), std::byte{0xEE});
    }
    poc::sync();
  }

private:
  int id_;
};

int main() {
  const int ranks = poc::job_ranks();
  const poc::machine last = poc::rank_machine(ranks - 1);
  int failures = 0;
  for (std::size_t size : kSizes) {
    const std::size_t pages = kPagesPerClient * static_cast<std::size_t>(ranks);
    auto *plain = new (last) pocstd::PageDevice(pocstd::Storage::memory(), pages, size);
    auto *cached = new (last)
        pocstd::ArrayDevice(pocstd::Storage::memory(), pages, 1, 1, static_cast<int>(size / 16), 2);
    auto *sink = new (poc::rank_machine(0)) Sink;
    std::vector<Client *> clients;
    std::vector<poc::future<void>> runs;
    for (int r = 0; r < ranks; ++r)
      clients.push_back(new (poc::rank_machine(r)) Client(r));
    for (Client *c : clients)
      runs.push_back(start c->exercise(plain, cached, size, sink));
    for (auto &run : runs) {
      try {
        run.get();
      } catch (const std::exception &e) {
        std::printf("FAIL: %zu-byte pages: %s\n", size, e.what());
        ++failures;
      }
    }
    const std::uint64_t calls = 3 * kRounds * static_cast<std::uint64_t>(ranks);
    if (sink->taken() != calls || sink->bad() != 0) {
      std::printf("FAIL: %zu bytes: the sink took %llu started calls (%llu bad), %llu expected\n",
                  size, static_cast<unsigned long long>(sink->taken()),
                  static_cast<unsigned long long>(sink->bad()),
                  static_cast<unsigned long long>(calls));
      ++failures;
    }
    // Reads in flight when the device ends: the lent pages outlive it.
    std::deque<pocstd::Page> seen(pages);
    std::vector<poc::future<void>> reads;
    for (std::uint32_t i = 0; i < pages; ++i)
      reads.push_back(start plain->read(seen[i], i));
    delete plain;
    for (std::uint32_t i = 0; i < pages; ++i) {
      reads[i].get();
      const std::string failure = check_page(seen[i], size, i, kRounds + 1);
      if (!failure.empty()) {
        std::printf("FAIL: %zu bytes, a read before the device's deletion: %s\n", size,
                    failure.c_str());
        ++failures;
      }
    }
    for (Client *c : clients)
      delete c;
    delete cached;
    delete sink;
  }
  std::printf("lent pages: %d failures over %zu page sizes on %d ranks\n", failures,
              std::size(kSizes), ranks);
  return failures == 0 ? 0 : 1;
}
