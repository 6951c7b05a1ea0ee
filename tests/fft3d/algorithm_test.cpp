// The FFT3 algorithm (paper 4.2-4.3) run in-process: local ArrayDevices as
// page servers, and the F processes' iterations executed one after another
// with the same per-line code FFT3 runs. Checked against FFTW's in-core 3D
// transform of the same input.
#include "fft3d/reference.hpp"
#include "fft3d/run_line.hpp"
#include "fft3d/streamed_check.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <tuple>

using namespace fft3d;
using pocstd::Domain;

namespace {

struct RunShape {
  std::array<int, 3> n;
  std::array<int, 3> page;
  int servers;
  int processes;
  bool prefetch;
  int passes = 3; ///< fft3d::transformPasses
};

class LocalRun {
public:
  explicit LocalRun(const RunShape &s) : s_(s) {
    pocstd::PageMap map((s.n[0] + s.page[0] - 1) / s.page[0], (s.n[1] + s.page[1] - 1) / s.page[1],
                        (s.n[2] + s.page[2] - 1) / s.page[2], s.servers);
    std::vector<pocstd::ArrayDevice *> refs;
    for (int k = 0; k < s.servers; ++k) {
      devices_.push_back(std::make_unique<pocstd::ArrayDevice>(
          pocstd::Storage::memory(), std::max<std::size_t>(1, map.PagesOnServer(k)), s.page[0],
          s.page[1], s.page[2], 64));
      refs.push_back(devices_.back().get());
    }
    array_ = pocstd::Array(Domain::box(s.n[0], s.n[1], s.n[2]),
                           Domain::box(s.page[0], s.page[1], s.page[2]), refs, map);
  }

  /// The whole transform: every process has its own Array copy and line
  /// buffer, as the FFT3 processes do.
  void transform(int sign, bool initialize, std::uint64_t seed) {
    std::vector<pocstd::Array> arrays(static_cast<std::size_t>(s_.processes), array_);
    std::vector<int> passes = transformPasses(s_.passes);
    std::vector<std::unique_ptr<LineTransform>> lines;
    for (int p = 0; p < s_.processes; ++p)
      lines.push_back(std::make_unique<LineTransform>(array_.ArrayDomain(), array_.PageDomain(),
                                                      passes, std::vector<int>{sign}, false));
    if (initialize) {
      PassSchedule slabs(array_.ArrayDomain(), array_.PageDomain(), 2, s_.processes);
      for (int p = 0; p < s_.processes; ++p)
        writeInput(arrays[p], *lines[p], slabs, p, seed);
    }
    for (int dim : passes) {
      PassSchedule schedule(array_.ArrayDomain(), array_.PageDomain(), dim, s_.processes);
      LineJob job;
      job.sign = sign;
      job.prefetch = s_.prefetch;
      if (sign == kBackward && dim == passes.back())
        job.scale = 1.0 / double(array_.ArrayDomain().size());
      std::vector<PassTimes> times(static_cast<std::size_t>(s_.processes));
      for (int i = 0; i < schedule.iterations(); ++i)
        for (int p = 0; p < s_.processes; ++p)
          runLine(arrays[p], *lines[p], schedule, p, i, job, times[p]);
      long long lines = 0;
      for (const PassTimes &t : times)
        lines += t.lines;
      ASSERT_EQ(lines, schedule.lines()) << "every line transformed exactly once";
    }
  }

  std::vector<std::complex<double>> contents() {
    std::vector<std::complex<double>> out(static_cast<std::size_t>(array_.ArrayDomain().size()));
    array_.read(array_.ArrayDomain(), out.data());
    return out;
  }
  pocstd::Array &array() { return array_; }
  std::uint64_t cacheHits() const {
    std::uint64_t h = 0;
    for (const auto &d : devices_)
      h += d->stats().cache_hits;
    return h;
  }

private:
  RunShape s_;
  std::vector<std::unique_ptr<pocstd::ArrayDevice>> devices_;
  pocstd::Array array_;
};

class Algorithm : public ::testing::TestWithParam<RunShape> {};

} // namespace

TEST_P(Algorithm, ForwardMatchesFftwAndInverseRecoversInput) {
  const RunShape &s = GetParam();
  LocalRun run(s);
  run.transform(kForward, true, 7);
  std::vector<std::complex<double>> expected = makeInput(7, s.n);
  referenceTransform(expected, s.n, kForward, false);
  EXPECT_LE(maxRelativeError(run.contents(), expected), 1e-10);

  run.transform(kBackward, false, 7);
  EXPECT_LE(maxRelativeError(run.contents(), makeInput(7, s.n)), 1e-10);
  if (s.prefetch)
    EXPECT_GT(run.cacheHits(), 0u);
  else
    EXPECT_EQ(run.cacheHits(), 0u);
}

TEST(Algorithm, StreamedChecksSeeEnergyAndRoundTrip) {
  // The checks --verify uses beyond the in-core reference, column by column.
  RunShape s{{12, 10, 14}, {5, 4, 3}, 3, 2, false};
  LocalRun run(s);
  run.transform(kForward, true, 5);
  double points = 12.0 * 10 * 14;
  EXPECT_LE(energyError(run.array(), 5, points), 1e-12);
  EXPECT_GT(energyError(run.array(), 5, 1.0), 0.5); // the unscaled energy is wrong
  EXPECT_GT(roundTripError(run.array(), 5), 0.5);   // not the input yet
  run.transform(kBackward, false, 5);
  EXPECT_LE(roundTripError(run.array(), 5), 1e-12);
  EXPECT_LE(energyError(run.array(), 5, 1.0), 1e-12);
  // One changed value is seen.
  std::complex<double> one(1, 0);
  run.array().write(Domain(11, 12, 9, 10, 13, 14), &one);
  EXPECT_GT(roundTripError(run.array(), 5), 1e-3);
}

TEST(Algorithm, InverseAloneMatchesNormalisedFftw) {
  RunShape s{{8, 12, 10}, {4, 4, 4}, 3, 2, true};
  LocalRun run(s);
  run.transform(kBackward, true, 3);
  std::vector<std::complex<double>> expected = makeInput(3, s.n);
  referenceTransform(expected, s.n, kBackward, true);
  EXPECT_LE(maxRelativeError(run.contents(), expected), 1e-10);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, Algorithm,
    ::testing::Values(
        RunShape{{8, 8, 8}, {4, 4, 4}, 2, 2, true}, RunShape{{16, 16, 16}, {4, 8, 4}, 3, 4, true},
        RunShape{{12, 10, 14}, {5, 4, 3}, 4, 3, true}, // pages do not divide
        RunShape{{9, 9, 9}, {4, 4, 4}, 1, 1, false}, RunShape{{32, 8, 16}, {8, 8, 8}, 5, 2, false},
        RunShape{{6, 7, 5}, {6, 7, 5}, 2, 1, false}, // one page, one line: nothing to prefetch
        // Two passes: page planes, then fft1.
        RunShape{{8, 8, 8}, {4, 4, 4}, 2, 2, true, 2},
        RunShape{{16, 8, 12}, {4, 8, 4}, 3, 4, false, 2},
        RunShape{{12, 10, 14}, {5, 4, 3}, 4, 3, true, 2})); // pages do not divide
