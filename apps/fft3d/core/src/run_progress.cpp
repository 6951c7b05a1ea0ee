//===- run_progress.cpp - The persistent progress of a run ----------------===//

#include "fft3d/run_progress.hpp"

#include <poc/serialize.hpp>

#include <stdexcept>

namespace fft3d {

RunProgress::RunProgress(std::string fingerprint, int members)
    : fingerprint_(std::move(fingerprint)) {
  if (members <= 0)
    throw std::invalid_argument("RunProgress: needs at least one FFT process, got " +
                                std::to_string(members));
  positions_.resize(static_cast<std::size_t>(members));
}

void RunProgress::Record(int member, LinePosition next) {
  if (member < 0 || static_cast<std::size_t>(member) >= positions_.size())
    throw std::out_of_range("RunProgress::Record: no FFT process " + std::to_string(member) +
                            " in a run of " + std::to_string(positions_.size()));
  LinePosition &recorded = positions_[static_cast<std::size_t>(member)];
  if (next < recorded)
    throw std::logic_error("RunProgress::Record: FFT process " + std::to_string(member) +
                           " would go back from " + describe(recorded) + " to " + describe(next));
  recorded = next;
}

void RunProgress::poc_write(poc::Writer &w) const {
  w.write_all(fingerprint_, initialized_, positions_);
}

void RunProgress::poc_read(poc::Reader &r) {
  r.read_all(fingerprint_, initialized_, positions_);
  if (positions_.empty())
    r.fail("RunProgress: the saved run has no FFT processes");
}

} // namespace fft3d
