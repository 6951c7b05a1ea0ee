//===- phase_times.cpp - Timings of an FFT pass ---------------------------===//

#include "fft3d/phase_times.hpp"

#include <cstdio>

namespace fft3d {

namespace {
constexpr double kMiB = 1024.0 * 1024.0;

std::string format(const char *fmt, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}
} // namespace

std::string passName(int dim) { return "fft" + std::to_string(dim + 1); }

std::string formatBytes(double bytes) {
  if (bytes >= 1024.0 * kMiB)
    return format("%.4g GB", bytes / (1024.0 * kMiB));
  return format("%.4g MB", bytes / kMiB);
}

std::string formatRate(double bytes, double seconds) {
  if (seconds <= 0)
    return "- MB/sec";
  return format("%.6g MB/sec", bytes / kMiB / seconds);
}

std::string progressLine(const IterationTime &t, int iterations) {
  return format("%s iteration %d/%d: %s, %.6g sec, %s", passName(t.dim).c_str(), t.iteration + 1,
                iterations, formatBytes(double(t.bytes)).c_str(), t.seconds,
                formatRate(2.0 * double(t.bytes), t.seconds).c_str());
}

std::string processReport(const PassTimes &t) {
  std::string slab = t.slab.str();
  double bytes = double(t.bytes);
  std::string out;
  out += format("%d: Array::read %s:: %s, %.6g sec, %s\n", t.process, slab.c_str(),
                formatBytes(bytes).c_str(), t.read, formatRate(bytes, t.read).c_str());
  out += format("%d: Array::ReadIntoServerCache %s:: %.6g sec\n", t.process, slab.c_str(), t.cache);
  out += format("%d: fftw %s %.6g sec\n", t.process, slab.c_str(), t.fftw);
  out += format("%d: Array::write %s:: %s, %.6g sec, %s\n", t.process, slab.c_str(),
                formatBytes(bytes).c_str(), t.write, formatRate(bytes, t.write).c_str());
  if (t.records > 0)
    out += format("%d: progress record (flush, checkpoint) %.6g sec (%d records)\n", t.process,
                  t.record, t.records);
  out += format("%d: barrier %.6g sec, pass total %.6g sec (%d lines)\n", t.process, t.barrier,
                t.total, t.lines);
  return out;
}

std::string serverReport(int s, const pocstd::DeviceStats &st) {
  std::string out;
  // Bytes ReadIntoCache moved: the cache fills' share of the medium reads.
  double pageBytes = st.pages_read ? double(st.bytes_read) / double(st.pages_read) : 0;
  double fillBytes = pageBytes * double(st.cache_fills);
  out += format("%d: ArrayDevice::ReadIntoCache: %llu pages, %s, %.6g sec, %s\n", s,
                static_cast<unsigned long long>(st.cache_fills), formatBytes(fillBytes).c_str(),
                st.cache_fill_seconds, formatRate(fillBytes, st.cache_fill_seconds).c_str());
  out += format("%d: ArrayDevice::read: %llu pages from cache, %llu from the medium\n", s,
                static_cast<unsigned long long>(st.cache_hits),
                static_cast<unsigned long long>(st.cache_misses));
  out += format("%d: ArrayDevice::write: %llu pages, %s, %.6g sec, %s\n", s,
                static_cast<unsigned long long>(st.pages_written),
                formatBytes(double(st.bytes_written)).c_str(), st.write_seconds,
                formatRate(double(st.bytes_written), st.write_seconds).c_str());
  return out;
}

} // namespace fft3d
