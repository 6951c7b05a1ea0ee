//===- tests/persist/cli_test.cpp - The poc-store command-line tool -------===//
//
// Runs the real poc-store binary against stores written by the library (a
// second program reading objects by address) and checks output and exit
// codes.
//
//===----------------------------------------------------------------------===//
#include "poc/persist/store.hpp"
#include "temp_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace poc::persist;
using poc::persist::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

struct Result {
  int code = -1;
  std::string output; ///< stdout and stderr together.
};

/// Runs poc-store with \p args (already shell-quoted where needed).
Result run_tool(const std::string &args, const std::string &env = "") {
  std::string cmd = env + " " POC_STORE_EXE " " + args + " 2>&1";
  Result r;
  FILE *p = ::popen(cmd.c_str(), "r");
  if (!p)
    return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
    r.output.append(buf, n);
  int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::vector<std::byte> bytes(std::size_t n) { return std::vector<std::byte>(n, std::byte{7}); }

class CliTest : public ::testing::Test {
protected:
  void SetUp() override {
    S.save(Address::parse("data/set/PageDevice/34"), "ns::PageDevice", 0xabcdef, bytes(1234));
    S.save(Address::parse("data/set/PageDevice/35"), "ns::PageDevice", 0xabcdef, bytes(10));
    S.save(Address::parse("config"), "ns::Config", 1, bytes(0));
  }
  std::string store_arg() const { return "--store '" + Dir.path().string() + "'"; }

  TempDir Dir;
  Store S{Dir.path()};
};

TEST_F(CliTest, List) {
  Result r = run_tool(store_arg() + " list");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("config  ns::Config  0 bytes  20"));
  EXPECT_THAT(r.output, HasSubstr("data/set/PageDevice/34  ns::PageDevice  1234 bytes  "));
  EXPECT_THAT(r.output, HasSubstr("data/set/PageDevice/35  ns::PageDevice  10 bytes  "));
  EXPECT_LT(r.output.find("config"), r.output.find("data/set")); // sorted

  Result prefixed = run_tool(store_arg() + " list data/");
  EXPECT_EQ(prefixed.code, 0);
  EXPECT_THAT(prefixed.output, Not(HasSubstr("config")));
}

TEST_F(CliTest, StoreFromEnvironment) {
  Result r = run_tool("list", "POC_STORE='" + Dir.path().string() + "'");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("data/set/PageDevice/34"));
}

TEST_F(CliTest, Show) {
  Result r = run_tool(store_arg() + " show poc://data/set/PageDevice/34");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("address:      data/set/PageDevice/34"));
  EXPECT_THAT(r.output, HasSubstr("class:        ns::PageDevice"));
  EXPECT_THAT(r.output, HasSubstr("layout hash:  0x0000000000abcdef"));
  EXPECT_THAT(r.output, HasSubstr("payload:      1234 bytes"));
  EXPECT_THAT(r.output, HasSubstr("checksums:    ok"));
  EXPECT_THAT(r.output, ::testing::MatchesRegex("(.|\n)*saved:        20[0-9-]+T[0-9:.]+Z(.|\n)*"));

  Result missing = run_tool(store_arg() + " show no/such");
  EXPECT_EQ(missing.code, 1);
  EXPECT_THAT(missing.output, HasSubstr("object 'no/such': no such object"));
}

TEST_F(CliTest, Remove) {
  Result r = run_tool(store_arg() + " remove data/set/PageDevice/35");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_FALSE(S.contains(Address::parse("data/set/PageDevice/35")));
  EXPECT_TRUE(S.contains(Address::parse("data/set/PageDevice/34")));
  Result again = run_tool(store_arg() + " remove data/set/PageDevice/35");
  EXPECT_EQ(again.code, 1);
  EXPECT_THAT(again.output, HasSubstr("no such object"));
}

TEST_F(CliTest, RemoveRefusesActiveObject) {
  auto a = Address::parse("data/set/PageDevice/34");
  Lease active = S.lease(a);
  Result r = run_tool(store_arg() + " remove data/set/PageDevice/34");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("active in another process (pid " + std::to_string(::getpid())));
  EXPECT_TRUE(S.contains(a));
  active.release();
  EXPECT_EQ(run_tool(store_arg() + " remove data/set/PageDevice/34").code, 0);
  EXPECT_FALSE(S.contains(a));
}

TEST_F(CliTest, VerifyFindsDamage) {
  Result ok = run_tool(store_arg() + " verify");
  EXPECT_EQ(ok.code, 0) << ok.output;
  EXPECT_THAT(ok.output, HasSubstr("3 objects ok, 0 damaged"));

  auto file = S.file_of(Address::parse("data/set/PageDevice/34"));
  std::filesystem::resize_file(file, 100);
  std::ofstream(Dir.path() / "data/.35.pobj.123.4.tmp") << "partial";
  Result bad = run_tool(store_arg() + " verify");
  EXPECT_EQ(bad.code, 1) << bad.output;
  EXPECT_THAT(bad.output, HasSubstr("object 'data/set/PageDevice/34'"));
  EXPECT_THAT(bad.output, HasSubstr("truncated"));
  EXPECT_THAT(bad.output, HasSubstr("2 objects ok, 1 damaged, 1 temporary files"));

  Result list = run_tool(store_arg() + " list");
  EXPECT_EQ(list.code, 1);
  EXPECT_THAT(list.output, HasSubstr("data/set/PageDevice/34  DAMAGED (truncated)"));
  EXPECT_THAT(list.output, HasSubstr("data/set/PageDevice/35  ns::PageDevice"));

  Result clean = run_tool(store_arg() + " clean --older-than 0");
  EXPECT_EQ(clean.code, 0) << clean.output;
  EXPECT_THAT(clean.output, HasSubstr("removed 1 temporary files"));
}

TEST_F(CliTest, UsageErrors) {
  for (const char *args :
       {"", "frobnicate", "show", "remove", "list a b", "verify x", "--bogus list",
        "clean --older-than soon", "show /etc/passwd", "show a/../b"}) {
    Result r = run_tool(store_arg() + " " + args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.output;
    EXPECT_THAT(r.output, HasSubstr("poc-store: ")) << args;
  }
  EXPECT_THAT(run_tool(store_arg() + " show a/../b").output,
              HasSubstr("relative path steps are not allowed"));
  EXPECT_THAT(run_tool("--store").output, HasSubstr("--store needs a directory"));
  Result missing = run_tool("--store '" + (Dir.path() / "nope").string() + "' list");
  EXPECT_EQ(missing.code, 1);
  EXPECT_THAT(missing.output, HasSubstr("does not exist"));
  Result help = run_tool("--help");
  EXPECT_EQ(help.code, 0);
  EXPECT_THAT(help.output, HasSubstr("usage: poc-store"));
}

} // namespace
