//===- main.cpp - fft3d: the paper's out-of-core 3D FFT -------------------===//
///
/// Process-oriented C++ (compile with poc++): creates S page servers holding
/// an N1 x N2 x N3 complex array and a group of F FFT3 processes that
/// transform it, then prints the per-phase report of the paper's section 5.3.
///
//===----------------------------------------------------------------------===//

#include "fft3.hpp"

#include "fft3d/options.hpp"
#include "fft3d/progress.hpp"
#include "fft3d/reference.hpp"
#include "fft3d/run_progress.hpp"
#include "fft3d/schedule.hpp"
#include "fft3d/streamed_check.hpp"

#include "pocstd/array.hpp"
#include "pocstd/array_device.hpp"

#include <fmt/format.h>
#include <poc/persist/store.hpp>
#include <poc/poc.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

using fft3d::RunProgress;
using pocstd::Array;
using pocstd::ArrayDevice;
using pocstd::Domain;

namespace {

/// Machine \p i of \p names, round robin; without names, of the job's
/// machines (see poc::machines()).
poc::machine pick(const std::vector<std::string> &names, int i) {
  if (!names.empty())
    return names[static_cast<std::size_t>(i) % names.size()];
  std::vector<poc::machine> all = poc::machines();
  return all[static_cast<std::size_t>(i) % all.size()];
}

/// Where FFT process \p i runs: on the --fft-machines, round robin, or else
/// in the host of page server i % S. There it copies that server's memory
/// pages directly (pocstd::LocalPages); with the slab map and F = S these
/// are all the pages of its fft2 and fft3 lines.
poc::machine fftMachine(const fft3d::Options &opt, const Array &array, int i) {
  if (!opt.fftMachines.empty())
    return pick(opt.fftMachines, i);
  return poc::machine_of(array.PageServer(i % array.NumberOfServers()));
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// The processes holding a run's data: its page servers and, out of core,
/// its persistent progress record (null in core).
struct RunProcesses {
  std::vector<ArrayDevice *> servers;
  RunProgress *progress = nullptr;
};

std::string serverAddress(const fft3d::Options &opt, int s) {
  return opt.run + "/PageDevice/" + std::to_string(s);
}
std::string progressAddress(const fft3d::Options &opt) { return opt.run + "/progress"; }

/// In-core page servers: ordinary processes, gone with the job.
RunProcesses createInCore(const fft3d::Options &opt, const pocstd::PageMap &map, int cachePages) {
  RunProcesses run;
  for (int s = 0; s < opt.servers; ++s) {
    // A server with no pages (more servers than pages) still needs a device.
    std::size_t pages = std::max<std::size_t>(1, map.PagesOnServer(s));
    run.servers.push_back(new (pick(opt.serverMachines, s)) ArrayDevice(
        pocstd::Storage::memory(), pages, opt.page[0], opt.page[1], opt.page[2], cachePages));
  }
  return run;
}

/// Deletes from the store whatever an earlier run named opt.run left there
/// (a run started afresh); true if there was something.
bool discardRun(const fft3d::Options &opt) {
  bool found = false;
  if (RunProgress *old =
          poc::persistent<RunProgress>(pick(opt.serverMachines, 0), progressAddress(opt))) {
    delete old;
    found = true;
  }
  // The earlier run may have had more servers than this one.
  for (int s = 0;; ++s) {
    ArrayDevice *old =
        poc::persistent<ArrayDevice>(pick(opt.serverMachines, s), serverAddress(opt, s));
    if (!old && s >= opt.servers)
      break;
    if (old) {
      delete old;
      found = true;
    }
  }
  return found;
}

/// A new out-of-core run: persistent page servers holding two copies of
/// every page, one file each, then the progress record. The record comes
/// last, so a kill halfway leaves no run that --resume would take.
RunProcesses createOutOfCore(const fft3d::Options &opt, const pocstd::PageMap &map,
                             int cachePages) {
  if (discardRun(opt))
    fmt::print("fft3d: deleted the earlier run '{}' from the store (--resume would have "
               "continued it)\n",
               opt.run);
  RunProcesses run;
  for (int s = 0; s < opt.servers; ++s) {
    pocstd::Storage storage =
        pocstd::Storage::file(opt.directory + "/fft3d-pages-" + std::to_string(s), opt.directIO);
    std::size_t pages = std::max<std::size_t>(1, 2 * map.PagesOnServer(s));
    run.servers.push_back(
        new (poc::persistent_at(pick(opt.serverMachines, s), serverAddress(opt, s)))
            ArrayDevice(storage, pages, opt.page[0], opt.page[1], opt.page[2], cachePages));
  }
  run.progress = new (poc::persistent_at(pick(opt.serverMachines, 0), progressAddress(opt)))
      RunProgress(fft3d::runFingerprint(opt), opt.ffts);
  return run;
}

/// The out-of-core run opt.run as a killed job left it in the store.
RunProcesses findOutOfCore(const fft3d::Options &opt) {
  RunProcesses run;
  run.progress = poc::persistent<RunProgress>(pick(opt.serverMachines, 0), progressAddress(opt));
  if (!run.progress)
    throw std::runtime_error("fft3d: --resume: the store " +
                             poc::persist::Store::default_root().string() +
                             " holds no run named '" + opt.run + "'");
  std::string recorded = run.progress->Fingerprint();
  if (recorded != fft3d::runFingerprint(opt))
    throw std::runtime_error("fft3d: --resume: run '" + opt.run + "' has other parameters (" +
                             recorded +
                             "); resume with the same options, or start afresh "
                             "without --resume");
  for (int s = 0; s < opt.servers; ++s) {
    ArrayDevice *server =
        poc::persistent<ArrayDevice>(pick(opt.serverMachines, s), serverAddress(opt, s));
    if (!server)
      throw std::runtime_error("fft3d: --resume: run '" + opt.run + "' has no page server at '" +
                               serverAddress(opt, s) + "'");
    run.servers.push_back(server);
  }
  return run;
}

/// Where a run continues: from its \p progress record, or from the start.
fft3d::ResumePoint resumePoint(const fft3d::Options &opt, const Domain &arrayDomain,
                               const Domain &pageDomain, RunProgress *progress) {
  if (!progress)
    return {};
  std::array<int, 3> iterations{};
  for (int d = 0; d < 3; ++d)
    iterations[static_cast<std::size_t>(d)] =
        fft3d::PassSchedule(arrayDomain, pageDomain, d, opt.ffts).iterations();
  return fft3d::resumeFrom(progress->Positions(), iterations);
}

/// Runs transform \p transform of the run (sign \p sign) with a fresh group
/// of F FFT3 processes from \p from on (writing the input first unless
/// \p initialized); returns the members' timings, member 0's per-iteration
/// ones in \p iterations and the wall time of the transform proper in
/// \p seconds.
std::vector<fft3d::PassTimes> transform(const fft3d::Options &opt, Array *array, int sign,
                                        int transform, bool initialized,
                                        const fft3d::ResumePoint &from, RunProgress *progress,
                                        std::vector<fft3d::IterationTime> &iterations,
                                        double &seconds) {
  FFT3Settings settings;
  settings.prefetch = opt.prefetch;
  settings.measure = opt.measure;
  settings.progress = opt.progress;
  settings.normalize = sign == fft3d::kBackward;
  settings.passes = opt.passes;
  settings.seed = opt.seed;
  settings.recordEvery = opt.recordEvery;
  settings.haltAfterRecords = opt.haltAfterRecords;

  int n = opt.ffts;
  FFT3 **fft = new FFT3 *[n];
  for (int i = 0; i < n; ++i)
    fft[i] = new (fftMachine(opt, *array, i)) FFT3(sign, array, settings, progress);
  for (int i = 0; i < n; ++i)
    fft[i]->SetProcessGroup(i, n, fft);
  if (!initialized) {
    for (int i = 0; i < n; ++i)
      start fft[i]->Initialize();
    poc::sync();
    if (progress) {
      // The members' writes are stored (their Initialize synced); make them
      // durable before the record says so.
      array->Flush();
      poc::sync();
      progress->MarkInitialized();
      poc::checkpoint(progress);
    }
  }
  bool resumed = from.transform == transform;
  double t0 = now();
  for (int i = 0; i < n; ++i)
    start fft[i]->ComputeTransform(transform, resumed ? from.pass : 0,
                                   resumed ? from.firstLine : std::vector<int>{});
  poc::sync();
  seconds = now() - t0;

  std::vector<fft3d::PassTimes> times;
  for (int i = 0; i < n; ++i)
    for (const fft3d::PassTimes &t : fft[i]->Times())
      times.push_back(t);
  iterations = fft[0]->Iterations();
  for (int i = 0; i < n; ++i)
    delete fft[i];
  delete[] fft;
  return times;
}

void printReport(const std::vector<fft3d::PassTimes> &times, int passes, double arrayBytes) {
  for (int dim : fft3d::transformPasses(passes)) {
    fmt::print("{} ({}):\n", fft3d::passName(dim), fft3d::passTitle(dim));
    std::vector<fft3d::PassTimes> pass;
    for (const fft3d::PassTimes &t : times)
      if (t.dim == dim) {
        fmt::print("{}", fft3d::processReport(t));
        pass.push_back(t);
      }
    fmt::print("{}", fft3d::passSummary(pass, arrayBytes));
  }
}

void writeCsv(const std::string &file, const std::vector<fft3d::PassTimes> &times,
              const std::vector<fft3d::IterationTime> &iterations) {
  std::ofstream out(file);
  if (!out)
    throw std::runtime_error("fft3d: cannot write " + file);
  out << "kind,pass,index,bytes,seconds,read,cache,fftw,write,barrier\n";
  // The pass by its name's number: 1, 2, 3, or 23 (the page planes).
  auto pass = [](int dim) { return fft3d::passName(dim).substr(3); };
  for (const fft3d::IterationTime &it : iterations)
    out << "iteration," << pass(it.dim) << ',' << it.iteration << ',' << it.bytes << ','
        << it.seconds << ",,,,,\n";
  for (const fft3d::PassTimes &t : times)
    out << "process," << pass(t.dim) << ',' << t.process << ',' << t.bytes << ',' << t.total << ','
        << t.read << ',' << t.cache << ',' << t.fftw << ',' << t.write << ',' << t.barrier << '\n';
}

/// A client of the array that reads its result after \p transforms
/// transforms of \p passes passes each.
Array resultAfter(Array array, int transforms, int passes) {
  // Pass k wrote page set (k + 1) % 2 when there are two.
  if (array.PageSets() == 2)
    array.SelectPageSets((passes * transforms) % 2, 0);
  return array;
}

/// The whole of \p result (a client from resultAfter).
std::vector<std::complex<double>> readAll(Array &result) {
  std::vector<std::complex<double>> data(static_cast<std::size_t>(result.ArrayDomain().size()));
  result.read(result.ArrayDomain(), data.data());
  return data;
}

/// Prints the verdict on \p error, a \p measure (e.g. "max relative
/// error") of the check \p what.
bool check(const std::string &what, const char *measure, double error) {
  constexpr double kTolerance = 1e-10;
  bool ok = error <= kTolerance;
  fmt::print("verify {}: {} {:.3g} (tolerance {:.0e}): {}\n", what, measure, error, kTolerance,
             ok ? "OK" : "FAILED");
  return ok;
}

/// Arrays up to this many points are compared with FFTW's in-core 3D
/// transform (2 GiB in one process); larger ones only by Parseval.
constexpr double kReferencePoints = double(1 << 27);

} // namespace

int main(int argc, char **argv) {
  fft3d::Options opt;
  try {
    opt = fft3d::parseOptions(argc, argv);
  } catch (const fft3d::OptionError &e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  if (opt.help) {
    std::cout << fft3d::usage();
    return 0;
  }

  Domain arrayDomain = Domain::box(opt.size[0], opt.size[1], opt.size[2]);
  Domain pageDomain = Domain::box(opt.page[0], opt.page[1], opt.page[2]);
  pocstd::PageMap map(opt.pages(0), opt.pages(1), opt.pages(2), opt.servers, opt.pageMap);
  // Each server caches what the F processes may have prefetched and not yet
  // read: up to two lines per process (the one being read, the next one),
  // spread evenly over the servers by the circulant map, plus rounding.
  // Memory servers have nothing to prefetch, and without a cache the FFT
  // processes on their host copy their pages directly (pocstd::LocalPages).
  int longestLine = std::max({opt.pages(0), opt.pages(1), opt.pages(2)});
  int cachePages = opt.prefetch && !opt.inCore
                       ? (2 * opt.ffts * longestLine + opt.servers - 1) / opt.servers + opt.ffts
                       : 0;

  double bytes = double(arrayDomain.size()) * sizeof(std::complex<double>);
  fmt::print("fft3d: {}x{}x{} complex doubles ({}) in {}x{}x{} pages on {} {} servers, "
             "{} FFT processes, {} passes, prefetch {}\n",
             opt.size[0], opt.size[1], opt.size[2], fft3d::formatBytes(bytes), opt.page[0],
             opt.page[1], opt.page[2], opt.servers, opt.inCore ? "memory" : "file", opt.ffts,
             opt.passes, opt.prefetch ? "on" : "off");

  // Out-of-core runs keep two copies of every page, read one and write the
  // other, and record their progress in the store: they can be resumed after
  // a kill.
  RunProcesses run;
  fft3d::ResumePoint from;
  bool initialized = false;
  try {
    if (opt.inCore)
      run = createInCore(opt, map, cachePages);
    else if (!opt.resume)
      run = createOutOfCore(opt, map, cachePages);
    else {
      run = findOutOfCore(opt);
      initialized = run.progress->Initialized();
    }
    from = resumePoint(opt, arrayDomain, pageDomain, run.progress);
  } catch (const std::exception &e) {
    // Also the store's errors, e.g. a run active in another job.
    std::cerr << e.what() << "\n";
    return 2;
  }
  Array array(arrayDomain, pageDomain, run.servers, map, opt.inCore ? 1 : 2);
  if (opt.clientTranspose)
    array.SetTransposeSite(pocstd::TransposeSite::Client);
  std::vector<int> signs;
  if (opt.direction != fft3d::Direction::Inverse)
    signs.push_back(fft3d::kForward);
  if (opt.direction != fft3d::Direction::Forward)
    signs.push_back(fft3d::kBackward);

  if (opt.resume && from.transform >= static_cast<int>(signs.size()))
    fmt::print("fft3d: run '{}' has finished; nothing left to compute\n", opt.run);
  else if (opt.resume) {
    fmt::print("fft3d: resuming run '{}' at transform {}, {}:", opt.run, from.transform + 1,
               fft3d::passName(from.pass));
    for (std::size_t p = 0; p < from.firstLine.size(); ++p)
      fmt::print(" FFT process {} from line {} of {}{}", p, from.firstLine[p], from.iterations,
                 p + 1 < from.firstLine.size() ? "," : "\n");
  }

  bool ok = true;
  double seconds = 0;
  std::vector<fft3d::PassTimes> times;
  std::vector<fft3d::IterationTime> iterations;
  // The first transform: its energy (any size, a column of pages at a
  // time), and every value against FFTW's in-core transform when that fits.
  auto verifyFirst = [&] {
    bool forward = signs[0] == fft3d::kForward;
    std::string what = forward ? "forward" : "inverse";
    double points = double(arrayDomain.size());
    Array result = resultAfter(array, 1, opt.passes);
    bool good = check(what + " energy (Parseval)", "relative difference",
                      fft3d::energyError(result, opt.seed, forward ? points : 1 / points));
    if (points > kReferencePoints) {
      fmt::print("verify {}: {:g} points exceed the in-core reference's 2^27; checked by "
                 "Parseval only\n",
                 what, points);
      return good;
    }
    std::vector<std::complex<double>> expected = fft3d::makeInput(opt.seed, opt.size);
    fft3d::referenceTransform(expected, opt.size, signs[0], !forward);
    return check(what, "max relative error", fft3d::maxRelativeError(readAll(result), expected)) &&
           good;
  };
  for (int k = from.transform; k < static_cast<int>(signs.size()); ++k) {
    std::vector<fft3d::IterationTime> its;
    double s = 0;
    std::vector<fft3d::PassTimes> ts =
        transform(opt, &array, signs[k], k, initialized, from, run.progress, its, s);
    initialized = true;
    seconds += s;
    times.insert(times.end(), ts.begin(), ts.end());
    iterations.insert(iterations.end(), its.begin(), its.end());
    // The inverse of a round trip overwrites the forward result.
    if (opt.verify && k == 0 && signs.size() == 2)
      ok &= verifyFirst();
  }
  // (A run resumed after it had finished, kept with --keep, verifies its
  // stored result.)
  // A round trip against its input, a column of pages at a time (any size).
  if (opt.verify) {
    if (signs.size() == 1) {
      ok &= verifyFirst();
    } else {
      Array result = resultAfter(array, 2, opt.passes);
      ok &= check("forward+inverse", "max relative error", fft3d::roundTripError(result, opt.seed));
    }
  }
  printReport(times, opt.passes, bytes);
  fmt::print("servers:\n");
  for (int s = 0; s < opt.servers; ++s)
    fmt::print("{}", fft3d::serverReport(s, run.servers[static_cast<std::size_t>(s)]->stats()));
  // Every pass reads and writes each of its lines once.
  double done = 0, copied = 0;
  for (const fft3d::PassTimes &t : times) {
    done += double(t.bytes);
    copied += fft3d::copiesPerByte(t.moved, t.bytes) * double(t.bytes);
  }
  fmt::print("total: {:g} passes over {} in {:.6g} sec: {} transformed, {} read+write, "
             "{:.3g} copies of the array\n",
             done / bytes, fft3d::formatBytes(bytes), seconds, fft3d::formatRate(done, seconds),
             fft3d::formatRate(2 * done, seconds), copied / bytes);
  if (!opt.csv.empty())
    writeCsv(opt.csv, times, iterations);

  // A finished run leaves nothing in the store unless asked to: the record
  // first, so that no resumable run ever names deleted servers. Kept, the
  // processes are saved when the program ends (deactivation).
  if (opt.keep) {
    fmt::print("fft3d: kept run '{}' in the store {}\n", opt.run,
               poc::persist::Store::default_root().string());
    return ok ? 0 : 1;
  }
  delete run.progress;
  for (ArrayDevice *server : run.servers)
    delete server;
  return ok ? 0 : 1;
}
