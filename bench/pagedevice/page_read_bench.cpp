// A page read (4 KiB by default) from a memory-tier PageDevice on rank 1 by
// main on rank 0, against raw MPI between the same two ranks in the same
// job: a ping-pong of the page's size (the baseline), an 8-byte
// request answered by a page (what a read transfers), and the same answered
// from as many pages as the device holds, in turn (what a read touches: the
// device's pages are not all in the cache, a single answer buffer is). The rounds
// alternate; the raw far half runs as a started method of a process on
// rank 1, on MPI_COMM_WORLD (the runtime talks on duplicates of its own).
//
//   mpirun -n 2 page_read_bench [READS [PAGE_KIB]]
// prints one RESULT line per baseline: name|poc++ us|raw us|us|ratio.

#include <pocstd/page_device.hpp>

#include <fmt/format.h>
#include <poc/poc.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <utility>
#include <vector>

namespace {

constexpr std::size_t kPages = 64;
constexpr int kRounds = 7;
constexpr int kRawTag = 7;

} // namespace

/// The raw baseline's far half: answers `exchanges` requests of `ask`
/// bytes from rank 0 with `answer` bytes each, from `buffers` buffers in
/// turn.
class RawResponder {
public:
  void answer(int exchanges, int ask, int answer, int buffers) {
    std::vector<char> in(static_cast<std::size_t>(ask));
    std::vector<std::vector<char>> out(static_cast<std::size_t>(buffers),
                                       std::vector<char>(static_cast<std::size_t>(answer), 'p'));
    for (int i = 0; i < exchanges; ++i) {
      MPI_Recv(in.data(), ask, MPI_CHAR, 0, kRawTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(out[static_cast<std::size_t>(i % buffers)].data(), answer, MPI_CHAR, 0, kRawTag,
               MPI_COMM_WORLD);
    }
  }
};

namespace {

/// Microseconds per raw exchange of `ask` bytes out, `answer` bytes back
/// (from `buffers` buffers in turn), with a RawResponder on rank 1
/// answering. It exists only for the round:
/// a second process waiting on rank 1 would make the device's requests
/// cost a thread hand-over whenever its thread received them.
double raw_round_trip(int reads, int ask, int answer, int buffers = 1) {
  auto *responder = new (poc::rank_machine(1)) RawResponder;
  const int warm_up = reads / 10;
  start responder->answer(warm_up + reads, ask, answer, buffers);
  std::vector<char> out(static_cast<std::size_t>(ask)), in(static_cast<std::size_t>(answer));
  const int peer = poc::remote_id(responder).host;
  auto exchange = [&] {
    MPI_Send(out.data(), ask, MPI_CHAR, peer, kRawTag, MPI_COMM_WORLD);
    MPI_Recv(in.data(), answer, MPI_CHAR, peer, kRawTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  };
  for (int i = 0; i < warm_up; ++i)
    exchange();
  const auto begin = std::chrono::steady_clock::now();
  for (int i = 0; i < reads; ++i)
    exchange();
  std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - begin;
  poc::sync();
  delete responder;
  return took.count() / reads;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Microseconds per synchronous read of a page from `device`.
double page_reads(pocstd::PageDevice *device, int reads) {
  pocstd::Page page;
  for (int i = 0; i < reads / 10; ++i) // warm-up
    device->read(page, static_cast<std::size_t>(i) % kPages);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < reads; ++i) {
    pocstd::Page fresh;
    device->read(fresh, static_cast<std::size_t>(i) % kPages);
  }
  std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
  return took.count() / reads;
}

} // namespace

int main(int argc, char **argv) {
  const int reads = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int page_kib = argc > 2 ? std::atoi(argv[2]) : 4;
  if (reads < 10 || page_kib < 1 || page_kib > 1 << 20 || poc::host_count() != 2) {
    fmt::print(stderr, "usage: mpirun -n 2 page_read_bench [READS >= 10 [PAGE_KIB >= 1]]\n");
    return 2;
  }
  const int page_bytes = page_kib * 1024;
  auto *device = new (poc::rank_machine(1))
      pocstd::PageDevice(pocstd::Storage::memory(), kPages, static_cast<std::size_t>(page_bytes));
  pocstd::Page page(static_cast<std::size_t>(page_bytes));
  for (std::size_t i = 0; i < kPages; ++i)
    device->write(page, i);
  std::vector<double> poc_reads, ping_pong, request_page, request_pages;
  for (int r = 0; r < kRounds; ++r) {
    poc_reads.push_back(page_reads(device, reads));
    ping_pong.push_back(raw_round_trip(reads, page_bytes, page_bytes));
    request_page.push_back(raw_round_trip(reads, 8, page_bytes));
    request_pages.push_back(raw_round_trip(reads, 8, page_bytes, static_cast<int>(kPages)));
  }
  delete device;
  const double poc_us = median(poc_reads);
  for (auto [baseline, base] :
       {std::pair{"ping-pong", &ping_pong}, std::pair{"8 B request, page answer", &request_page},
        std::pair{"8 B request, answer from 64 pages in turn", &request_pages}}) {
    const double raw_us = median(*base);
    fmt::print("RESULT|{} KiB page read vs raw {} (us)|{:.3f}|{:.3f}|us|{:.2f}\n", page_kib,
               baseline, poc_us, raw_us, poc_us / raw_us);
  }
  return 0;
}
