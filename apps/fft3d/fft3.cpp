//===- fft3.cpp - The FFT processes of the paper, section 4.2 -------------===//

#include "fft3.hpp"

#include "fft3d/progress.hpp"
#include "fft3d/run_line.hpp"
#include "fft3d/schedule.hpp"

#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <thread>

namespace {
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Seconds the page servers of \p a have spent in their medium so far.
double mediumSeconds(const pocstd::Array &a) {
  double seconds = 0;
  for (int s = 0; s < a.NumberOfServers(); ++s) {
    pocstd::DeviceStats st = a.PageServer(s)->stats();
    seconds += st.read_seconds + st.write_seconds;
  }
  return seconds;
}
} // namespace

FFT3::FFT3(int sign, pocstd::Array *a, FFT3Settings settings, fft3d::RunProgress *progress)
    : sign(sign), a(*a), settings(settings), progress(progress),
      passes(fft3d::transformPasses(settings.passes)),
      lines(std::make_unique<fft3d::LineTransform>(this->a.ArrayDomain(), this->a.PageDomain(),
                                                   passes, std::vector<int>{sign},
                                                   settings.measure)) {}

void FFT3::Initialize() {
  a.SelectPageSets(0, 0);
  fft3d::PassSchedule slab(a.ArrayDomain(), a.PageDomain(), 2, NumberOfProcesses());
  fft3d::writeInput(a, *lines, slab, ID(), settings.seed);
  poc::sync();
}

void FFT3::ComputeTransform(int transform, int firstPass, std::vector<int> firstLine) {
  times.clear();
  iterations.clear();
  for (int pass = firstPass; pass < static_cast<int>(passes.size()); ++pass)
    ComputePass(transform, pass, pass == firstPass ? firstLine : std::vector<int>{});
}

void FFT3::RecordProgress(fft3d::LinePosition next, fft3d::PassTimes &t) {
  if (!progress)
    return;
  double start = now();
  // The servers serve this member's requests in order: once sync returns,
  // its writes are stored (or have reported their error, which sync
  // throws: then nothing is recorded) and flushed to the medium.
  a.Flush();
  poc::sync();
  progress->Record(ID(), next);
  poc::checkpoint(progress);
  t.record += now() - start;
  t.records += 1;
  if (++records == settings.haltAfterRecords) {
    // The test that asked for this kills the job now; the member's record
    // is durable, and the group cannot finish without it.
    fmt::print("fft3d: FFT process {} halted after record {}\n", ID(), records);
    std::fflush(stdout);
    for (;;)
      std::this_thread::sleep_for(std::chrono::hours(1));
  }
}

void FFT3::ComputePass(int transform, int pass, const std::vector<int> &firstLine) {
  int dim = passes[static_cast<std::size_t>(pass)];
  int count = static_cast<int>(passes.size());
  fft3d::PassSchedule schedule(a.ArrayDomain(), a.PageDomain(), dim, NumberOfProcesses());
  // With two page sets the passes alternate between them, so a pass never
  // overwrites its own input and an interrupted iteration can be redone.
  if (a.PageSets() == 2) {
    int run = count * transform + pass;
    a.SelectPageSets(run % 2, (run + 1) % 2);
  }
  fft3d::LineJob job;
  job.sign = sign;
  job.prefetch = settings.prefetch;
  // The inverse is normalised once, in the last pass.
  if (settings.normalize && pass == count - 1)
    job.scale = 1.0 / static_cast<double>(a.ArrayDomain().size());
  fft3d::PassTimes t;
  t.process = ID();
  t.dim = dim;
  t.slab = schedule.slab(ID());
  double passStart = now();
  pocstd::TransferStats movedBefore = a.Transfers();
  double mediumBefore = ID() == 0 ? mediumSeconds(a) : 0;
  // A resumed pass: every member joins every iteration's barrier from the
  // group's earliest line on, but transforms only from its own first line.
  fft3d::ResumePoint from{transform, pass, firstLine, schedule.iterations()};
  int mine = firstLine.empty() ? 0 : firstLine[static_cast<std::size_t>(ID())];
  int unrecorded = 0;
  for (int i = from.firstIteration(); i < schedule.iterations(); ++i) {
    double iterationStart = now();
    if (i >= mine) {
      fft3d::runLine(a, *lines, schedule, ID(), i, job, t);
      // The end of the pass is recorded below in any case.
      if (++unrecorded == settings.recordEvery && i + 1 < schedule.iterations()) {
        RecordProgress(fft3d::LinePosition{transform, pass, i + 1}, t);
        unrecorded = 0;
      }
    }
    double barrierStart = now();
    barrier();
    t.barrier += now() - barrierStart;
    if (ID() == 0) {
      fft3d::IterationTime it{dim, i, fft3d::iterationBytes(schedule, NumberOfProcesses(), i),
                              now() - iterationStart};
      iterations.push_back(it);
      if (settings.progress) {
        fmt::print("{}\n", fft3d::progressLine(it, schedule.iterations()));
        std::fflush(stdout);
      }
    }
  }
  // The writes were started; the servers store them in order, overlapping
  // their disk work with the next lines. Before anyone reads them (the next
  // pass) they must all be stored: sync, then the barrier. sync also reports
  // their errors. Every member records the end of its pass before the
  // barrier, so no one overwrites this pass's input (the next pass's output)
  // while a member's record still points into the pass.
  double syncStart = now();
  poc::sync();
  t.write += now() - syncStart;
  // (Out of core a transform has the paper's three passes, pass == dim.)
  RecordProgress(fft3d::nextPass(transform, pass), t);
  double barrierStart = now();
  barrier();
  t.barrier += now() - barrierStart;
  t.total = now() - passStart;
  t.moved = a.Transfers().since(movedBefore);
  if (ID() == 0)
    t.medium = mediumSeconds(a) - mediumBefore;
  times.push_back(t);
}
