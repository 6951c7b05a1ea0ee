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

#include "pocstd/array.hpp"
#include "pocstd/array_device.hpp"

#include <poc/poc.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <iostream>
#include <string>
#include <vector>

using pocstd::Array;
using pocstd::ArrayDevice;
using pocstd::Domain;

namespace {

/// Machine \p i of \p names, round robin; without names, of the job's
/// machines (see poc::machines()).
poc::machine pick(const std::vector<std::string>& names, int i) {
  if (!names.empty())
    return names[static_cast<std::size_t>(i) % names.size()];
  std::vector<poc::machine> all = poc::machines();
  return all[static_cast<std::size_t>(i) % all.size()];
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Runs transform \p transform of the run (sign \p sign) with a fresh group
/// of F FFT3 processes, from \p from on (writing the input first unless it
/// is there); returns the members' timings, member 0's per-iteration ones in
/// \p iterations and the wall time of the transform proper in \p seconds.
std::vector<fft3d::PassTimes> transform(const fft3d::Options& opt, Array* array, int sign,
                                        int transform, const fft3d::Progress& from,
                                        const fft3d::ProgressFile& progress,
                                        std::vector<fft3d::IterationTime>& iterations,
                                        double& seconds) {
  FFT3Settings settings;
  settings.prefetch = opt.prefetch;
  settings.measure = opt.measure;
  settings.progress = opt.progress;
  settings.normalize = sign == fft3d::kBackward;
  settings.seed = opt.seed;
  settings.progressFile = progress.path();
  settings.fingerprint = progress.fingerprint();

  int n = opt.ffts;
  FFT3** fft = new FFT3*[n];
  for (int i = 0; i < n; ++i)
    fft[i] = new (pick(opt.fftMachines, i)) FFT3(sign, array, settings);
  for (int i = 0; i < n; ++i)
    fft[i]->SetProcessGroup(i, n, fft);
  if (!from.initialized) {
    for (int i = 0; i < n; ++i)
      start fft[i]->Initialize();
    poc::sync();
    if (progress.enabled())
      progress.save(fft3d::Progress{true, 0, 0, 0});
  }
  int firstPass = from.transform == transform ? from.pass : 0;
  int firstIteration = from.transform == transform ? from.iteration : 0;
  double t0 = now();
  for (int i = 0; i < n; ++i)
    start fft[i]->ComputeTransform(transform, firstPass, firstIteration);
  poc::sync();
  seconds = now() - t0;

  std::vector<fft3d::PassTimes> times;
  for (int i = 0; i < n; ++i)
    for (const fft3d::PassTimes& t : fft[i]->Times())
      times.push_back(t);
  iterations = fft[0]->Iterations();
  for (int i = 0; i < n; ++i)
    delete fft[i];
  delete[] fft;
  return times;
}

void printReport(const std::vector<fft3d::PassTimes>& times) {
  for (int dim = 0; dim < 3; ++dim) {
    std::printf("%s (1D FFTs along dimension %d):\n", fft3d::passName(dim).c_str(), dim + 1);
    for (const fft3d::PassTimes& t : times)
      if (t.dim == dim)
        std::printf("%s", fft3d::processReport(t).c_str());
  }
}

void writeCsv(const std::string& file, const std::vector<fft3d::PassTimes>& times,
              const std::vector<fft3d::IterationTime>& iterations) {
  std::ofstream out(file);
  if (!out)
    throw std::runtime_error("fft3d: cannot write " + file);
  out << "kind,pass,index,bytes,seconds,read,cache,fftw,write,barrier\n";
  for (const fft3d::IterationTime& it : iterations)
    out << "iteration," << it.dim + 1 << ',' << it.iteration << ',' << it.bytes << ','
        << it.seconds << ",,,,,\n";
  for (const fft3d::PassTimes& t : times)
    out << "process," << t.dim + 1 << ',' << t.process << ',' << t.bytes << ',' << t.total
        << ',' << t.read << ',' << t.cache << ',' << t.fftw << ',' << t.write << ','
        << t.barrier << '\n';
}

/// The whole array after \p transforms transforms (3 passes each), read back
/// through a client Array.
std::vector<std::complex<double>> readAll(Array array, int transforms) {
  // Pass k wrote page set (k + 1) % 2 when there are two.
  if (array.PageSets() == 2)
    array.SelectPageSets((3 * transforms) % 2, 0);
  std::vector<std::complex<double>> data(static_cast<std::size_t>(array.ArrayDomain().size()));
  array.read(array.ArrayDomain(), data.data());
  return data;
}

bool check(const char* what, double error) {
  constexpr double kTolerance = 1e-10;
  bool ok = error <= kTolerance;
  std::printf("verify %s: max relative error %.3g (tolerance %.0e): %s\n", what, error,
              kTolerance, ok ? "OK" : "FAILED");
  return ok;
}

} // namespace

int main(int argc, char** argv) {
  fft3d::Options opt;
  try {
    opt = fft3d::parseOptions(argc, argv);
  } catch (const fft3d::OptionError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
  if (opt.help) {
    std::cout << fft3d::usage();
    return 0;
  }

  Domain arrayDomain = Domain::box(opt.size[0], opt.size[1], opt.size[2]);
  Domain pageDomain = Domain::box(opt.page[0], opt.page[1], opt.page[2]);
  pocstd::PageMap map(opt.pages(0), opt.pages(1), opt.pages(2), opt.servers);
  // Each server caches what the F processes may have prefetched and not yet
  // read: up to two lines per process (the one being read, the next one),
  // spread evenly over the servers by the circulant map, plus rounding.
  int longestLine = std::max({opt.pages(0), opt.pages(1), opt.pages(2)});
  int cachePages =
      opt.prefetch ? (2 * opt.ffts * longestLine + opt.servers - 1) / opt.servers + opt.ffts : 0;

  double bytes = double(arrayDomain.size()) * sizeof(std::complex<double>);
  std::printf("fft3d: %dx%dx%d complex doubles (%s) in %dx%dx%d pages on %d %s servers, "
              "%d FFT processes, prefetch %s\n",
              opt.size[0], opt.size[1], opt.size[2], fft3d::formatBytes(bytes).c_str(),
              opt.page[0], opt.page[1], opt.page[2], opt.servers,
              opt.inCore ? "memory" : "file", opt.ffts, opt.prefetch ? "on" : "off");

  // Out-of-core runs keep two copies of every page, read one and write the
  // other, and record their progress: they can be resumed after a kill.
  int pageSets = opt.inCore ? 1 : 2;
  fft3d::ProgressFile progress;
  fft3d::Progress from;
  if (!opt.inCore) {
    progress = fft3d::ProgressFile(opt.directory + "/fft3d-progress", fft3d::runFingerprint(opt));
    try {
      if (opt.resume) {
        std::optional<fft3d::Progress> recorded = progress.load();
        if (!recorded) {
          std::cerr << "fft3d: --resume: no progress record in " << opt.directory << "\n";
          return 2;
        }
        from = *recorded;
        std::printf("fft3d: resuming at transform %d, %s, iteration %d\n", from.transform + 1,
                    fft3d::passName(from.pass).c_str(), from.iteration + 1);
      }
    } catch (const std::exception& e) {
      std::cerr << e.what() << "\n";
      return 2;
    }
  }

  std::vector<ArrayDevice*> servers(static_cast<std::size_t>(opt.servers));
  for (int s = 0; s < opt.servers; ++s) {
    pocstd::Storage storage = opt.inCore
        ? pocstd::Storage::memory()
        : pocstd::Storage::file(opt.directory + "/fft3d-pages-" + std::to_string(s),
                                opt.directIO);
    // A server with no pages (more servers than pages) still needs a device.
    std::size_t pages = std::max<std::size_t>(1, pageSets * map.PagesOnServer(s));
    servers[static_cast<std::size_t>(s)] = new (pick(opt.serverMachines, s))
        ArrayDevice(storage, pages, opt.page[0], opt.page[1], opt.page[2], cachePages);
  }
  Array array(arrayDomain, pageDomain, servers, map, pageSets);
  if (opt.clientTranspose)
    array.SetTransposeSite(pocstd::TransposeSite::Client);

  std::vector<int> signs;
  if (opt.direction != fft3d::Direction::Inverse)
    signs.push_back(fft3d::kForward);
  if (opt.direction != fft3d::Direction::Forward)
    signs.push_back(fft3d::kBackward);

  bool ok = true;
  double seconds = 0;
  std::vector<fft3d::PassTimes> times;
  std::vector<fft3d::IterationTime> iterations;
  for (int k = from.transform; k < static_cast<int>(signs.size()); ++k) {
    std::vector<fft3d::IterationTime> its;
    double s = 0;
    std::vector<fft3d::PassTimes> ts =
        transform(opt, &array, signs[k], k, from, progress, its, s);
    from.initialized = true;
    seconds += s;
    times.insert(times.end(), ts.begin(), ts.end());
    iterations.insert(iterations.end(), its.begin(), its.end());
    if (opt.verify && k == 0) {
      std::vector<std::complex<double>> expected = fft3d::makeInput(opt.seed, opt.size);
      fft3d::referenceTransform(expected, opt.size, signs[0], signs[0] == fft3d::kBackward);
      ok &= check(signs[0] == fft3d::kForward ? "forward" : "inverse",
                  fft3d::maxRelativeError(readAll(array, 1), expected));
    }
  }
  if (opt.verify && signs.size() == 2)
    ok &= check("forward+inverse", fft3d::maxRelativeError(readAll(array, 2),
                                                           fft3d::makeInput(opt.seed, opt.size)));
  if (progress.enabled())
    progress.remove();

  printReport(times);
  std::printf("servers:\n");
  for (int s = 0; s < opt.servers; ++s)
    std::printf("%s", fft3d::serverReport(s, servers[static_cast<std::size_t>(s)]->stats()).c_str());
  // Every pass reads and writes each of its lines once.
  double done = 0;
  for (const fft3d::PassTimes& t : times)
    done += double(t.bytes);
  std::printf("total: %g passes over %s in %.6g sec: %s transformed, %s read+write\n",
              done / bytes, fft3d::formatBytes(bytes).c_str(), seconds,
              fft3d::formatRate(done, seconds).c_str(),
              fft3d::formatRate(2 * done, seconds).c_str());
  if (!opt.csv.empty())
    writeCsv(opt.csv, times, iterations);

  for (ArrayDevice* server : servers)
    delete server;
  return ok ? 0 : 1;
}
