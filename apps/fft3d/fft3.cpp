//===- fft3.cpp - The FFT processes of the paper, section 4.2 -------------===//

#include "fft3.hpp"

#include "fft3d/progress.hpp"
#include "fft3d/run_line.hpp"
#include "fft3d/schedule.hpp"

#include <chrono>
#include <cstdio>

namespace {
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
} // namespace

FFT3::FFT3(int sign, pocstd::Array* a, FFT3Settings settings)
    : sign(sign), a(*a), settings(settings),
      lines(std::make_unique<fft3d::LineTransform>(this->a.ArrayDomain(), this->a.PageDomain(),
                                                   std::vector<int>{sign}, settings.measure)) {}

void FFT3::Initialize() {
  a.SelectPageSets(0, 0);
  fft3d::PassSchedule slab(a.ArrayDomain(), a.PageDomain(), 2, NumberOfProcesses());
  fft3d::writeInput(a, *lines, slab, ID(), settings.seed);
  poc::sync();
}

void FFT3::ComputeTransform(int transform, int firstPass, int firstIteration) {
  times.clear();
  iterations.clear();
  for (int dim = firstPass; dim < 3; ++dim)
    ComputePass(transform, dim, dim == firstPass ? firstIteration : 0);
}

void FFT3::ComputePass(int transform, int dim, int firstIteration) {
  fft3d::PassSchedule schedule(a.ArrayDomain(), a.PageDomain(), dim, NumberOfProcesses());
  // With two page sets the passes alternate between them, so a pass never
  // overwrites its own input and an interrupted iteration can be redone.
  if (a.PageSets() == 2) {
    int pass = 3 * transform + dim;
    a.SelectPageSets(pass % 2, (pass + 1) % 2);
  }
  fft3d::ProgressFile progress(settings.progressFile, settings.fingerprint);
  fft3d::LineJob job;
  job.sign = sign;
  job.prefetch = settings.prefetch;
  // The inverse is normalised once, in the last pass.
  if (settings.normalize && dim == 2)
    job.scale = 1.0 / static_cast<double>(a.ArrayDomain().size());
  fft3d::PassTimes t;
  t.process = ID();
  t.dim = dim;
  t.slab = schedule.slab(ID());
  double passStart = now();
  for (int i = firstIteration; i < schedule.iterations(); ++i) {
    double iterationStart = now();
    fft3d::runLine(a, *lines, schedule, ID(), i, job, t);
    double barrierStart = now();
    barrier();
    t.barrier += now() - barrierStart;
    if (ID() == 0) {
      fft3d::IterationTime it{dim, i, fft3d::iterationBytes(schedule, NumberOfProcesses(), i),
                              now() - iterationStart};
      iterations.push_back(it);
      if (settings.progress) {
        std::printf("%s\n", fft3d::progressLine(it, schedule.iterations()).c_str());
        std::fflush(stdout);
      }
    }
  }
  // The writes were started; the servers store them in order, overlapping
  // their disk work with the next lines. Before anyone reads them (the next
  // pass) they must all be stored: sync, then the barrier. sync also reports
  // their errors.
  double syncStart = now();
  poc::sync();
  t.write += now() - syncStart;
  double barrierStart = now();
  barrier();
  t.barrier += now() - barrierStart;
  if (ID() == 0 && progress.enabled())
    progress.save(fft3d::Progress{true, dim == 2 ? transform + 1 : transform, (dim + 1) % 3, 0});
  t.total = now() - passStart;
  times.push_back(t);
}
