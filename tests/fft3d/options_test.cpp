#include "fft3d/options.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

using namespace fft3d;

namespace {
Options parse(std::initializer_list<const char *> args) {
  std::vector<const char *> argv{"fft3d"};
  argv.insert(argv.end(), args);
  return parseOptions(static_cast<int>(argv.size()), argv.data());
}

/// The message of the OptionError \p args raise ("" if none).
std::string error(std::initializer_list<const char *> args) {
  try {
    parse(args);
  } catch (const OptionError &e) {
    return e.what();
  }
  return "";
}
} // namespace

TEST(Options, Defaults) {
  Options o = parse({});
  EXPECT_EQ(o.size, (std::array<int, 3>{32, 32, 32}));
  EXPECT_EQ(o.servers, 2);
  EXPECT_TRUE(o.inCore);
  EXPECT_TRUE(o.prefetch);
  EXPECT_EQ(o.pageMap, pocstd::PageLayout::Slabs);
}

TEST(Options, ParsesEverything) {
  Options o = parse({"--size",
                     "64x32x16",
                     "--page=8",
                     "--servers",
                     "3",
                     "--ffts=4",
                     "--server-machines",
                     "a,b",
                     "--fft-machines",
                     "c",
                     "--out-of-core",
                     "/tmp/x",
                     "--buffered-io",
                     "--prefetch",
                     "off",
                     "--transpose",
                     "client",
                     "--page-map",
                     "circulant",
                     "--direction",
                     "roundtrip",
                     "--verify",
                     "--plan",
                     "measure",
                     "--quiet",
                     "--seed",
                     "9",
                     "--csv",
                     "t.csv"});
  EXPECT_EQ(o.size, (std::array<int, 3>{64, 32, 16}));
  EXPECT_EQ(o.page, (std::array<int, 3>{8, 8, 8}));
  EXPECT_EQ(o.servers, 3);
  EXPECT_EQ(o.ffts, 4);
  EXPECT_EQ(o.serverMachines, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(o.fftMachines, (std::vector<std::string>{"c"}));
  EXPECT_FALSE(o.inCore);
  EXPECT_EQ(o.directory, "/tmp/x");
  EXPECT_FALSE(o.directIO);
  EXPECT_FALSE(o.prefetch);
  EXPECT_TRUE(o.clientTranspose);
  EXPECT_EQ(o.pageMap, pocstd::PageLayout::Circulant);
  EXPECT_EQ(o.direction, Direction::RoundTrip);
  EXPECT_TRUE(o.verify);
  EXPECT_TRUE(o.measure);
  EXPECT_FALSE(o.progress);
  EXPECT_EQ(o.seed, 9u);
  EXPECT_EQ(o.csv, "t.csv");
}

TEST(Options, BadOptionsGiveClearMessages) {
  EXPECT_NE(error({"--servers", "0"}).find("--servers needs an integer in 1..4096, got '0'"),
            std::string::npos);
  EXPECT_NE(error({"--size", "12x12"}).find("--size needs N or N1xN2xN3"), std::string::npos);
  EXPECT_NE(error({"--size", "abc"}).find("got 'abc'"), std::string::npos);
  EXPECT_NE(error({"--page", "64"}).find("page (64) is larger than the array (32)"),
            std::string::npos);
  EXPECT_NE(error({"--ffts", "100", "--size", "8", "--page", "4"}).find("exceeds the 4 page lines"),
            std::string::npos);
  EXPECT_NE(error({"--frobnicate"}).find("unknown option '--frobnicate'"), std::string::npos);
  EXPECT_NE(error({"--servers"}).find("--servers needs a value"), std::string::npos);
  EXPECT_NE(error({"--prefetch", "maybe"}).find("on or off"), std::string::npos);
  EXPECT_NE(error({"--transpose", "here"}).find("server or client"), std::string::npos);
  EXPECT_NE(error({"--page-map", "rows"}).find("circulant or slabs"), std::string::npos);
  EXPECT_NE(error({"--direction", "sideways"}).find("forward, inverse or roundtrip"),
            std::string::npos);
  EXPECT_NE(error({"--server-machines", "a,,b"}).find("empty machine name"), std::string::npos);
  EXPECT_NE(error({"--quiet=yes"}).find("--quiet takes no value"), std::string::npos);
  EXPECT_TRUE(parse({"--help", "--bogus"}).help);
}

TEST(Options, VerifyTakesAnySize) {
  // Beyond the in-core reference's 2^27 points, --verify checks by Parseval
  // and round trips column by column.
  Options o = parse({"--verify", "--size", "1024", "--page", "64"});
  EXPECT_TRUE(o.verify);
}

TEST(Options, ResumeNeedsOutOfCore) {
  EXPECT_NE(error({"--resume"}).find("--resume continues an out-of-core run"), std::string::npos);
  EXPECT_TRUE(parse({"--resume", "--out-of-core", "/tmp"}).resume);
}

TEST(Options, RunNameRecordIntervalAndKeep) {
  Options o =
      parse({"--out-of-core", "/tmp", "--run", "runs/a-1", "--record-every", "3", "--keep"});
  EXPECT_EQ(o.run, "runs/a-1");
  EXPECT_EQ(o.recordEvery, 3);
  EXPECT_TRUE(o.keep);
  EXPECT_EQ(parse({}).run, "fft3d");
  EXPECT_NE(error({"--out-of-core", "/tmp", "--run", "a/../b"}).find("--run 'a/../b' cannot name"),
            std::string::npos);
  EXPECT_NE(error({"--out-of-core", "/tmp", "--run", ""}).find("cannot name objects"),
            std::string::npos);
  EXPECT_NE(error({"--record-every", "0"}).find("--record-every needs an integer"),
            std::string::npos);
  EXPECT_NE(error({"--keep"}).find("--keep leaves an out-of-core run"), std::string::npos);
}

TEST(Options, PassesDefaultToTwoInCoreWhereEveryProcessGetsAPagePlane) {
  EXPECT_EQ(parse({}).passes, 2);                                            // 4 planes, F = 2
  EXPECT_EQ(parse({"--size", "8", "--page", "4", "--ffts", "3"}).passes, 3); // 2 planes
  EXPECT_EQ(parse({"--out-of-core", "d"}).passes, 3);
  EXPECT_EQ(parse({"--passes", "3"}).passes, 3);
  EXPECT_NE(error({"--passes", "2", "--out-of-core", "d"}).find("--passes 2 runs in core only"),
            std::string::npos);
  EXPECT_NE(error({"--passes", "2", "--size", "8", "--page", "4", "--ffts", "3"})
                .find("--ffts 3 exceeds the 2 page planes along dimension 1"),
            std::string::npos);
  EXPECT_NE(error({"--passes", "4"}).find("--passes needs an integer in 2..3, got '4'"),
            std::string::npos);
}
