//===- phase_times.cpp - Timings of an FFT pass ---------------------------===//

#include "fft3d/phase_times.hpp"

#include <fmt/format.h>

namespace fft3d {

namespace {
constexpr double kMiB = 1024.0 * 1024.0;

} // namespace

std::string passName(int dim) { return "fft" + std::to_string(dim + 1); }

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
  out += fmt::format("{}: barrier {:.6g} sec, pass total {:.6g} sec ({} lines)\n", t.process,
                     t.barrier, t.total, t.lines);
  return out;
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
