//===- tests/persist/lease_test.cpp - Exclusive activation ----------------===//
#include "poc/persist/error.hpp"
#include "poc/persist/store.hpp"
#include "temp_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace poc::persist;
using poc::persist::testing::TempDir;
using ::testing::HasSubstr;

namespace {

class LeaseTest : public ::testing::Test {
protected:
  TempDir Dir;
  Store S{Dir.path() / "store"};
  Address A = Address::parse("data/set/PageDevice/34");
};

TEST_F(LeaseTest, ExclusiveWithinOneProcess) {
  std::optional<Lease> first = S.try_lease(A);
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->held());
  EXPECT_EQ(first->address(), A);
  EXPECT_FALSE(S.try_lease(A));
  try {
    S.lease(A);
    FAIL() << "second lease granted";
  } catch (const store_error &e) {
    EXPECT_EQ(e.kind(), store_errc::busy);
    EXPECT_THAT(e.what(), HasSubstr("object 'data/set/PageDevice/34'"));
    EXPECT_THAT(e.what(),
                HasSubstr("active in another process (pid " + std::to_string(::getpid()) + " on "));
  }
  // Other objects, even in the same directory, are independent.
  EXPECT_TRUE(S.try_lease(Address::parse("data/set/PageDevice/35")));
  first->release();
  EXPECT_FALSE(first->held());
  EXPECT_TRUE(S.try_lease(A));
}

TEST_F(LeaseTest, MoveKeepsTheLease) {
  Lease a = S.lease(A);
  Lease b = std::move(a);
  EXPECT_FALSE(a.held());
  EXPECT_TRUE(b.held());
  EXPECT_FALSE(S.try_lease(A));
  Lease c = S.lease(Address::parse("other"));
  c = std::move(b); // releases "other", takes over A
  EXPECT_TRUE(S.try_lease(Address::parse("other")));
  EXPECT_FALSE(S.try_lease(A));
}

TEST_F(LeaseTest, KilledHolderReleases) {
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    Lease held = S.lease(A);
    char c = 'x';
    if (::write(ready[1], &c, 1) != 1)
      ::_exit(1);
    ::pause();
    ::_exit(0);
  }
  char c;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  try {
    S.lease(A);
    FAIL() << "lease granted while another process holds it";
  } catch (const store_error &e) {
    EXPECT_EQ(e.kind(), store_errc::busy);
    EXPECT_THAT(e.what(), HasSubstr("pid " + std::to_string(pid)));
  }
  ::kill(pid, SIGKILL);
  int status;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(S.try_lease(A)); // the kernel dropped the dead holder's lock
  ::close(ready[0]);
  ::close(ready[1]);
}

TEST_F(LeaseTest, LockFilesAreNotObjects) {
  S.save(A, "C", 1, {});
  Lease l = S.lease(A);
  ScanResult r = S.scan();
  EXPECT_EQ(r.objects.size(), 1u);
  EXPECT_EQ(r.locks.size(), 1u);
  EXPECT_TRUE(r.foreign.empty());
  EXPECT_TRUE(r.temporaries.empty());
  struct stat st;
  ASSERT_EQ(::stat(r.locks[0].c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST_F(LeaseTest, RemoveUnderLeaseCleansUpOnRelease) {
  S.save(A, "C", 1, {});
  {
    Lease l = S.lease(A);
    EXPECT_TRUE(S.remove(A));
    EXPECT_FALSE(S.contains(A));
    EXPECT_EQ(S.scan().locks.size(), 1u); // still held
  }
  EXPECT_TRUE(S.scan().locks.empty());
  EXPECT_FALSE(std::filesystem::exists(Dir.path() / "store/data"));
}

TEST_F(LeaseTest, RemoveWithoutLeaseDeletesLockFile) {
  S.save(A, "C", 1, {});
  S.lease(A).release();
  EXPECT_EQ(S.scan().locks.size(), 1u); // the object still exists
  EXPECT_TRUE(S.remove(A));
  EXPECT_TRUE(S.scan().locks.empty());
  EXPECT_FALSE(std::filesystem::exists(Dir.path() / "store/data"));
}

TEST_F(LeaseTest, ReleaseOfAnObjectNeverSavedLeavesNoTrace) {
  S.lease(A).release();
  EXPECT_TRUE(S.scan().locks.empty());
  EXPECT_FALSE(std::filesystem::exists(Dir.path() / "store/data"));
}

TEST_F(LeaseTest, CleanDeletesOnlyUnheldOrphanLocks) {
  auto b = Address::parse("data/b");
  Lease held = S.lease(b); // no record, but held: kept
  S.save(Address::parse("data/c"), "C", 1, {});
  S.lease(Address::parse("data/c")).release(); // record exists: kept
  // What a holder killed before saving leaves behind.
  std::ofstream(Dir.path() / "store/data/.orphan.pobj.lock") << "pid 1 on nowhere\n";
  EXPECT_EQ(S.scan().locks.size(), 3u);
  EXPECT_EQ(S.clean(std::chrono::seconds(0)), 1u);
  EXPECT_EQ(S.scan().locks.size(), 2u);
  EXPECT_FALSE(S.try_lease(b));
}

} // namespace
