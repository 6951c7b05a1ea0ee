//===- phase_times.cpp - Timings of an FFT pass ---------------------------===//

#include "fft3d/phase_times.hpp"

#include "fft3d/schedule.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace fft3d {

namespace {
constexpr double kMiB = 1024.0 * 1024.0;

} // namespace

std::string passName(int dim) {
  return dim == kPlanes23 ? "fft23" : "fft" + std::to_string(dim + 1);
}

std::string passTitle(int dim) {
  return dim == kPlanes23 ? "2D FFTs over dimensions 2 and 3, a page plane at a time"
                          : "1D FFTs along dimension " + std::to_string(dim + 1);
}

std::string formatBytes(double bytes) {
  if (bytes >= 1024.0 * kMiB)
    return fmt::format("{:.4g} GB", bytes / (1024.0 * kMiB));
  return fmt::format("{:.4g} MB", bytes / kMiB);
}

std::string formatRate(double bytes, double seconds) {
  if (seconds <= 0)
    return "- MB/sec";
  return fmt::format("{:.6g} MB/sec", bytes / kMiB / seconds);
}

std::string progressLine(const IterationTime &t, int iterations) {
  return fmt::format("{} iteration {}/{}: {}, {:.6g} sec, {}", passName(t.dim), t.iteration + 1,
                     iterations, formatBytes(double(t.bytes)), t.seconds,
                     formatRate(2.0 * double(t.bytes), t.seconds));
}

std::string processReport(const PassTimes &t) {
  std::string slab = t.slab.str();
  double bytes = double(t.bytes);
  std::string out;
  out += fmt::format("{}: Array::read {}:: {}, {:.6g} sec, {}\n", t.process, slab,
                     formatBytes(bytes), t.read, formatRate(bytes, t.read));
  out += fmt::format("{}: Array::ReadIntoServerCache {}:: {:.6g} sec\n", t.process, slab, t.cache);
  out += fmt::format("{}: fftw {} {:.6g} sec\n", t.process, slab, t.fftw);
  out += fmt::format("{}: Array::write {}:: {}, {:.6g} sec, {}\n", t.process, slab,
                     formatBytes(bytes), t.write, formatRate(bytes, t.write));
  if (t.records > 0)
    out += fmt::format("{}: progress record (flush, checkpoint) {:.6g} sec ({} records)\n",
                       t.process, t.record, t.records);
  const pocstd::TransferStats &m = t.moved;
  out += fmt::format("{}: moved: read {} local + {} remote, written {} local + {} remote, {:.3g} "
                     "copies per byte\n",
                     t.process, formatBytes(double(m.bytes_read_local)),
                     formatBytes(double(m.bytes_read_remote)),
                     formatBytes(double(m.bytes_written_local)),
                     formatBytes(double(m.bytes_written_remote)), copiesPerByte(m, t.bytes));
  out += fmt::format("{}: time: fftw {:.6g} sec, copies {:.6g} sec, waits {:.6g} sec\n", t.process,
                     t.fftw, m.copy_seconds, m.wait_seconds);
  out += fmt::format("{}: barrier {:.6g} sec, pass total {:.6g} sec ({} lines)\n", t.process,
                     t.barrier, t.total, t.lines);
  return out;
}

double copiesPerByte(const pocstd::TransferStats &t, std::uint64_t bytes) {
  if (bytes == 0)
    return 0;
  return (double(t.bytes_local()) * pocstd::TransferStats::kLocalCopies +
          double(t.bytes_remote()) * pocstd::TransferStats::kRemoteCopies) /
         double(bytes);
}

std::string passSummary(const std::vector<PassTimes> &pass, double arrayBytes) {
  pocstd::TransferStats sum;
  double fftw = 0, medium = 0, barrier = 0, wall = 0;
  for (const PassTimes &t : pass) {
    // The pass's final wait for the started writes is part of write.
    sum += t.moved;
    fftw += t.fftw;
    medium += t.medium;
    barrier += t.barrier;
    wall = std::max(wall, t.total);
  }
  std::uint64_t bytes = static_cast<std::uint64_t>(arrayBytes);
  return fmt::format("{} all processes: moved {} local, {} remote; {:.3g} copies per byte of "
                     "the array; sums over the processes: fftw {:.6g} sec, copies {:.6g} sec, "
                     "waits {:.6g} sec, barrier {:.6g} sec; servers' medium {:.6g} sec; "
                     "pass {:.6g} sec\n",
                     pass.empty() ? std::string("-") : passName(pass.front().dim),
                     formatBytes(double(sum.bytes_local())),
                     formatBytes(double(sum.bytes_remote())), copiesPerByte(sum, bytes), fftw,
                     sum.copy_seconds, sum.wait_seconds, barrier, medium, wall);
}

std::string serverReport(int s, const pocstd::DeviceStats &st) {
  std::string out;
  // Bytes ReadIntoCache moved: the cache fills' share of the medium reads.
  double pageBytes = st.pages_read ? double(st.bytes_read) / double(st.pages_read) : 0;
  double fillBytes = pageBytes * double(st.cache_fills);
  out += fmt::format("{}: ArrayDevice::ReadIntoCache: {} pages, {}, {:.6g} sec, {}\n", s,
                     static_cast<unsigned long long>(st.cache_fills), formatBytes(fillBytes),
                     st.cache_fill_seconds, formatRate(fillBytes, st.cache_fill_seconds));
  out += fmt::format("{}: ArrayDevice::read: {} pages from cache, {} from the medium\n", s,
                     static_cast<unsigned long long>(st.cache_hits),
                     static_cast<unsigned long long>(st.cache_misses));
  out += fmt::format("{}: shared: {} page copies by clients on the server's host, straight "
                     "to or from its memory\n",
                     s, static_cast<unsigned long long>(st.pages_shared));
  out += fmt::format("{}: ArrayDevice::write: {} pages, {}, {:.6g} sec, {}\n", s,
                     static_cast<unsigned long long>(st.pages_written),
                     formatBytes(double(st.bytes_written)), st.write_seconds,
                     formatRate(double(st.bytes_written), st.write_seconds));
  return out;
}

} // namespace fft3d
