#include "fft3d/progress.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace fft3d;

namespace {
class ProgressTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string templ = std::filesystem::temp_directory_path().string() + "/fft3d-progress-XXXXXX";
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir = templ;
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  std::string dir;
};
} // namespace

TEST(Progress, AdvanceWrapsIterationsPassesTransforms) {
  EXPECT_EQ(advance(Progress{true, 0, 0, 0}, 3), (Progress{true, 0, 0, 1}));
  EXPECT_EQ(advance(Progress{true, 0, 0, 2}, 3), (Progress{true, 0, 1, 0}));
  EXPECT_EQ(advance(Progress{true, 0, 2, 2}, 3), (Progress{true, 1, 0, 0}));
}

TEST_F(ProgressTest, SaveLoadRemove) {
  ProgressFile f(dir + "/p", "size=8");
  EXPECT_FALSE(f.load().has_value());
  f.save(Progress{true, 1, 2, 5});
  EXPECT_EQ(f.load(), (Progress{true, 1, 2, 5}));
  EXPECT_EQ(std::filesystem::status(dir + "/p").permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  f.remove();
  EXPECT_FALSE(f.load().has_value());
}

TEST_F(ProgressTest, OtherRunOrGarbageIsRefused) {
  ProgressFile(dir + "/p", "size=8").save(Progress{true, 0, 1, 0});
  try {
    ProgressFile(dir + "/p", "size=16").load();
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("other parameters (size=8)"), std::string::npos);
  }
  std::ofstream(dir + "/q") << "fft3d-progress 1 size=8 1 0 7";
  EXPECT_THROW(ProgressFile(dir + "/q", "size=8").load(), std::runtime_error);
  std::ofstream(dir + "/r") << "hello";
  EXPECT_THROW(ProgressFile(dir + "/r", "size=8").load(), std::runtime_error);
}

TEST(Progress, FingerprintNamesTheParameters) {
  Options o;
  std::string a = runFingerprint(o);
  o.seed = 2;
  EXPECT_NE(runFingerprint(o), a);
  o.seed = 1;
  o.ffts = 7; // iteration numbers depend on F
  EXPECT_NE(runFingerprint(o), a);
  o.ffts = Options().ffts;
  o.prefetch = false; // how, not what, is computed
  EXPECT_EQ(runFingerprint(o), a);
}
