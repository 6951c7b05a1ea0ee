// Where a restartable run has got to: positions, the resume point computed
// from the members' records, and the persistent RunProgress's rules and
// saved state (through the runtime's real Writer/Reader, as a save does).
#include "fft3d/progress.hpp"
#include "fft3d/run_progress.hpp"

#include "../stdlib/serialized.hpp"

#include <poc/serialize.hpp>

#include <gtest/gtest.h>

#include <stdexcept>

using namespace fft3d;

namespace {
const std::array<int, 3> kIterations{4, 6, 5};
} // namespace

TEST(Progress, PositionsOrderByTransformPassLine) {
  EXPECT_LT((LinePosition{0, 2, 9}), (LinePosition{1, 0, 0}));
  EXPECT_LT((LinePosition{0, 1, 9}), (LinePosition{0, 2, 0}));
  EXPECT_LT((LinePosition{0, 1, 3}), (LinePosition{0, 1, 4}));
  EXPECT_EQ(nextPass(0, 1), (LinePosition{0, 2, 0}));
  EXPECT_EQ(nextPass(0, 2), (LinePosition{1, 0, 0}));
  EXPECT_EQ(describe(LinePosition{1, 2, 5}), "transform 2, fft3, line 5");
}

TEST(Progress, ResumeContinuesEachMemberFromItsOwnLine) {
  ResumePoint r = resumeFrom({{0, 1, 3}, {0, 1, 5}, {0, 1, 0}}, kIterations);
  EXPECT_EQ(r.transform, 0);
  EXPECT_EQ(r.pass, 1);
  EXPECT_EQ(r.firstLine, (std::vector<int>{3, 5, 0}));
  EXPECT_EQ(r.iterations, 6);
  EXPECT_EQ(r.firstIteration(), 0);
}

TEST(Progress, MemberAlreadyInTheNextPassHasNothingLeftInThisOne) {
  // Member 1 recorded the end of fft3 before the kill, member 0 did not.
  ResumePoint r = resumeFrom({{0, 2, 2}, {1, 0, 0}}, kIterations);
  EXPECT_EQ(r.transform, 0);
  EXPECT_EQ(r.pass, 2);
  EXPECT_EQ(r.firstLine, (std::vector<int>{2, 5}));
  EXPECT_EQ(r.firstIteration(), 2);
}

TEST(Progress, FreshAndFinishedRuns) {
  ResumePoint fresh = resumeFrom({{0, 0, 0}, {0, 0, 0}}, kIterations);
  EXPECT_EQ(fresh.transform, 0);
  EXPECT_EQ(fresh.firstLine, (std::vector<int>{0, 0}));
  ResumePoint done = resumeFrom({{1, 0, 0}, {1, 0, 0}}, kIterations);
  EXPECT_EQ(done.transform, 1);
  EXPECT_EQ(done.pass, 0);
}

TEST(Progress, PositionsFromDifferentRunsAreRefused) {
  // Two passes apart, or ahead of the pass's start: no run gets there.
  EXPECT_THROW(resumeFrom({{0, 0, 1}, {0, 2, 0}}, kIterations), std::runtime_error);
  EXPECT_THROW(resumeFrom({{0, 0, 1}, {0, 1, 1}}, kIterations), std::runtime_error);
  EXPECT_THROW(resumeFrom({}, kIterations), std::runtime_error);
}

TEST(RunProgress, RecordsPerMemberAndNeverGoesBack) {
  RunProgress p("size=8", 2);
  EXPECT_FALSE(p.Initialized());
  p.MarkInitialized();
  p.Record(1, {0, 0, 4});
  p.Record(1, {0, 0, 4}); // recording the same place again is harmless
  EXPECT_EQ(p.Positions(), (std::vector<LinePosition>{{0, 0, 0}, {0, 0, 4}}));
  EXPECT_THROW(p.Record(1, {0, 0, 3}), std::logic_error);
  EXPECT_THROW(p.Record(2, {0, 0, 1}), std::out_of_range);
  EXPECT_THROW(p.Record(-1, {0, 0, 1}), std::out_of_range);
  EXPECT_THROW(RunProgress("size=8", 0), std::invalid_argument);
}

TEST(RunProgress, SavedStateRestoresTheRun) {
  RunProgress p("size=8,ffts=3", 3);
  p.MarkInitialized();
  p.Record(0, {0, 2, 7});
  p.Record(2, {1, 0, 0});
  RunProgress q = serialized::roundTrip(p);
  EXPECT_EQ(q.Fingerprint(), "size=8,ffts=3");
  EXPECT_TRUE(q.Initialized());
  EXPECT_EQ(q.Positions(), p.Positions());
}

TEST(RunProgress, CorruptSavedStateIsRefused) {
  poc::Writer w;
  w.write_all(std::string("size=8"), true, std::vector<LinePosition>{});
  poc::Reader r(w.bytes(), nullptr);
  RunProgress out;
  EXPECT_THROW(r.read(out), poc::decode_error);

  poc::Writer bad;
  bad.write_all(std::string("size=8"), true, std::vector<LinePosition>{{0, 1, -2}});
  poc::Reader r2(bad.bytes(), nullptr);
  EXPECT_THROW(r2.read(out), poc::decode_error);
}

TEST(Progress, FingerprintNamesTheParameters) {
  Options o;
  std::string a = runFingerprint(o);
  o.seed = 2;
  EXPECT_NE(runFingerprint(o), a);
  o.seed = 1;
  o.ffts = 7; // line numbers depend on F
  EXPECT_NE(runFingerprint(o), a);
  o.ffts = Options().ffts;
  o.prefetch = false; // how, not what, is computed
  o.recordEvery = 3;
  EXPECT_EQ(runFingerprint(o), a);
}
