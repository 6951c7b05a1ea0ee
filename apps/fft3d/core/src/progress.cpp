//===- progress.cpp - Where a restartable run has got to ------------------===//

#include "fft3d/progress.hpp"

#include <poc/serialize.hpp>

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace fft3d {

void LinePosition::poc_write(poc::Writer &w) const { w.write_all(transform, pass, line); }

void LinePosition::poc_read(poc::Reader &r) {
  r.read_all(transform, pass, line);
  if (transform < 0 || pass < 0 || pass > 2 || line < 0)
    r.fail("LinePosition: " + describe(*this) + " is not a place in a run");
}

LinePosition nextPass(int transform, int pass) {
  return pass == 2 ? LinePosition{transform + 1, 0, 0} : LinePosition{transform, pass + 1, 0};
}

int ResumePoint::firstIteration() const {
  return firstLine.empty() ? 0 : *std::min_element(firstLine.begin(), firstLine.end());
}

ResumePoint resumeFrom(const std::vector<LinePosition> &positions,
                       const std::array<int, 3> &iterations) {
  if (positions.empty())
    throw std::runtime_error("fft3d: the progress record has no FFT processes");
  LinePosition earliest = *std::min_element(positions.begin(), positions.end());
  int count = iterations[static_cast<std::size_t>(earliest.pass)];
  ResumePoint r{earliest.transform, earliest.pass, {}, count};
  LinePosition next = nextPass(r.transform, r.pass);
  for (const LinePosition &p : positions) {
    if (p.transform == r.transform && p.pass == r.pass)
      r.firstLine.push_back(std::min(p.line, count));
    else if (p == next)
      r.firstLine.push_back(count);
    else
      throw std::runtime_error("fft3d: the progress record is inconsistent: one FFT process "
                               "is at " +
                               describe(earliest) + ", another at " + describe(p));
  }
  return r;
}

std::string describe(const LinePosition &p) {
  return "transform " + std::to_string(p.transform + 1) + ", fft" + std::to_string(p.pass + 1) +
         ", line " + std::to_string(p.line);
}

std::string runFingerprint(const Options &o) {
  std::ostringstream s;
  s << "size=" << o.size[0] << 'x' << o.size[1] << 'x' << o.size[2] << ",page=" << o.page[0] << 'x'
    << o.page[1] << 'x' << o.page[2] << ",servers="
    << o.servers
    // A line number means a different line for another F.
    << ",ffts=" << o.ffts << ",map=" << static_cast<int>(o.pageMap)
    << ",direction=" << static_cast<int>(o.direction) << ",seed=" << o.seed;
  return s.str();
}

} // namespace fft3d
