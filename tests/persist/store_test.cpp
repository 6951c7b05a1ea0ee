//===- tests/persist/store_test.cpp - Store operations --------------------===//
#include "poc/persist/error.hpp"
#include "poc/persist/store.hpp"
#include "temp_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sys/stat.h>

using namespace poc::persist;
using poc::persist::testing::TempDir;
using ::testing::HasSubstr;

namespace {

std::vector<std::byte> bytes_of(std::string_view s) {
  std::vector<std::byte> v(s.size());
  std::memcpy(v.data(), s.data(), s.size());
  return v;
}

std::string string_of(const std::vector<std::byte> &v) {
  return std::string(reinterpret_cast<const char *>(v.data()), v.size());
}

mode_t mode_of(const std::filesystem::path &p) {
  struct stat st;
  EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
  return st.st_mode & 07777;
}

/// Runs \p f and returns the store_error it throws.
template <class F> store_error error_of(F &&f) {
  try {
    f();
  } catch (const store_error &e) {
    return e;
  }
  ADD_FAILURE() << "no store_error thrown";
  return store_error(store_errc::io, "", "none");
}

class StoreTest : public ::testing::Test {
protected:
  TempDir Dir;
  Store S{Dir.path() / "store"};
};

TEST_F(StoreTest, RoundTrip) {
  auto a = Address::parse("data/set/PageDevice/34");
  auto before = std::chrono::system_clock::now();
  SavedTime t = S.save(a, "ns::PageDevice", 0x1234abcd5678ef00ull, bytes_of("state of page 34"));
  Record r = S.load(a);
  EXPECT_EQ(r.info.address, a);
  EXPECT_EQ(r.info.class_name, "ns::PageDevice");
  EXPECT_EQ(r.info.layout_hash, 0x1234abcd5678ef00ull);
  EXPECT_EQ(r.info.payload_size, 16u);
  EXPECT_EQ(r.info.saved_time, t);
  EXPECT_GE(r.info.saved_time, before);
  EXPECT_EQ(string_of(r.payload), "state of page 34");
  EXPECT_TRUE(S.contains(a));
  EXPECT_EQ(S.file_of(a), Dir.path() / "store/data/set/PageDevice/34.pobj");

  RecordInfo info = S.info(a);
  EXPECT_EQ(info.class_name, "ns::PageDevice");
  EXPECT_EQ(info.payload_size, 16u);
}

TEST_F(StoreTest, EmptyAndLargePayloads) {
  auto empty = Address::parse("empty");
  S.save(empty, "E", 1, {});
  EXPECT_TRUE(S.load(empty).payload.empty());

  std::vector<std::byte> big(5 << 20);
  for (std::size_t i = 0; i < big.size(); ++i)
    big[i] = static_cast<std::byte>(i * 2654435761u >> 13);
  auto a = Address::parse("big/one");
  S.save(a, "Big", 2, big);
  EXPECT_EQ(S.load(a).payload, big);
}

TEST_F(StoreTest, GatherSave) {
  auto a = Address::parse("parts");
  std::vector<std::byte> head = bytes_of("message|"), block1(100000, std::byte{1}),
                         block2 = bytes_of("|tail");
  std::span<const std::byte> parts[] = {head, {}, block1, block2};
  S.save_parts(a, "C", 1, parts);
  std::vector<std::byte> whole = head;
  whole.insert(whole.end(), block1.begin(), block1.end());
  whole.insert(whole.end(), block2.begin(), block2.end());
  Record r = S.load(a);
  EXPECT_EQ(r.payload, whole);
  EXPECT_EQ(r.info.payload_size, whole.size());
}

TEST_F(StoreTest, SaveAll) {
  std::vector<std::vector<std::byte>> payloads;
  std::vector<std::span<const std::byte>> parts;
  std::vector<Store::SaveItem> items;
  for (int i = 0; i < 40; ++i)
    payloads.push_back(bytes_of("state " + std::to_string(i)));
  for (auto &p : payloads)
    parts.push_back(p);
  for (int i = 0; i < 40; ++i)
    items.push_back({Address::parse("batch/d" + std::to_string(i % 3) + "/o" + std::to_string(i)),
                     "C", static_cast<std::uint64_t>(i), std::span(&parts[i], 1)});
  S.save(items[5].address, "Old", 1, bytes_of("previous"));
  SavedTime t = S.save_all(items);
  for (int i = 0; i < 40; ++i) {
    Record r = S.load(items[i].address, "C", static_cast<std::uint64_t>(i));
    EXPECT_EQ(string_of(r.payload), "state " + std::to_string(i));
    EXPECT_EQ(r.info.saved_time, t);
  }
  EXPECT_TRUE(S.scan().temporaries.empty());
  EXPECT_EQ(S.list("batch/").size(), 40u);
  EXPECT_NO_THROW(S.save_all({}));
}

TEST_F(StoreTest, SaveAllLaterItemWins) {
  auto a = Address::parse("twice");
  auto first = bytes_of("first"), second = bytes_of("second");
  std::span<const std::byte> p1[] = {first}, p2[] = {second};
  Store::SaveItem items[] = {{a, "C", 1, p1}, {a, "C", 2, p2}};
  S.save_all(items);
  EXPECT_EQ(string_of(S.load(a).payload), "second");
  EXPECT_TRUE(S.scan().temporaries.empty());
}

TEST_F(StoreTest, SaveAllFailureKeepsPreviousStates) {
  auto a = Address::parse("keep/a"), b = Address::parse("keep/b");
  S.save(a, "C", 1, bytes_of("old a"));
  auto na = bytes_of("new a"), nb = bytes_of("new b");
  std::span<const std::byte> pa[] = {na}, pb[] = {nb};
  Store::SaveItem items[] = {{a, "C", 1, pa}, {b, "", 1, pb}}; // empty class name: rejected
  EXPECT_EQ(error_of([&] { S.save_all(items); }).kind(), store_errc::invalid_argument);
  EXPECT_EQ(string_of(S.load(a).payload), "old a");
  EXPECT_FALSE(S.contains(b));
  EXPECT_TRUE(S.scan().temporaries.empty());
}

TEST_F(StoreTest, SaveReplaces) {
  auto a = Address::parse("counter");
  S.save(a, "C", 1, bytes_of("one"));
  S.save(a, "C", 1, bytes_of("two, longer"));
  S.save(a, "C", 1, bytes_of("3"));
  EXPECT_EQ(string_of(S.load(a).payload), "3");
  EXPECT_TRUE(S.scan().temporaries.empty());
  EXPECT_EQ(S.list().size(), 1u);
}

TEST_F(StoreTest, NotFound) {
  auto a = Address::parse("no/such/object");
  EXPECT_FALSE(S.contains(a));
  store_error e = error_of([&] { S.load(a); });
  EXPECT_EQ(e.kind(), store_errc::not_found);
  EXPECT_EQ(e.address(), "no/such/object");
  EXPECT_THAT(e.what(), HasSubstr("object 'no/such/object'"));
  EXPECT_EQ(error_of([&] { S.info(a); }).kind(), store_errc::not_found);
  S.save(Address::parse("no/other"), "C", 1, {});
  EXPECT_EQ(error_of([&] { S.load(a); }).kind(), store_errc::not_found);
  EXPECT_FALSE(S.remove(a));
}

TEST_F(StoreTest, ClassAndLayoutChecks) {
  auto a = Address::parse("typed");
  S.save(a, "ns::Matrix", 42, bytes_of("m"));
  EXPECT_EQ(string_of(S.load(a, "ns::Matrix", 42).payload), "m");
  store_error cls = error_of([&] { S.load(a, "ns::Vector", 42); });
  EXPECT_EQ(cls.kind(), store_errc::class_mismatch);
  EXPECT_THAT(cls.what(), HasSubstr("object 'typed'"));
  EXPECT_THAT(cls.what(), HasSubstr("ns::Matrix"));
  store_error lay = error_of([&] { S.load(a, "ns::Matrix", 43); });
  EXPECT_EQ(lay.kind(), store_errc::layout_mismatch);
  EXPECT_THAT(lay.what(), HasSubstr("different layout"));
}

TEST_F(StoreTest, RejectsBadClassNames) {
  auto a = Address::parse("x");
  EXPECT_EQ(error_of([&] { S.save(a, "", 1, {}); }).kind(), store_errc::invalid_argument);
  EXPECT_EQ(error_of([&] { S.save(a, std::string(5000, 'C'), 1, {}); }).kind(),
            store_errc::invalid_argument);
  EXPECT_FALSE(S.contains(a));
}

TEST_F(StoreTest, PermissionsEvenWithPermissiveUmask) {
  mode_t old = ::umask(0);
  S.save(Address::parse("p/q/r"), "C", 1, bytes_of("secret"));
  ::umask(old);
  EXPECT_EQ(mode_of(Dir.path() / "store"), 0700u);
  EXPECT_EQ(mode_of(Dir.path() / "store/p"), 0700u);
  EXPECT_EQ(mode_of(Dir.path() / "store/p/q"), 0700u);
  EXPECT_EQ(mode_of(Dir.path() / "store/p/q/r.pobj"), 0600u);
}

TEST_F(StoreTest, RemovePrunesEmptyDirectories) {
  auto a = Address::parse("d1/d2/a");
  auto b = Address::parse("d1/b");
  S.save(a, "C", 1, {});
  S.save(b, "C", 1, {});
  EXPECT_TRUE(S.remove(a));
  EXPECT_FALSE(S.contains(a));
  EXPECT_FALSE(std::filesystem::exists(Dir.path() / "store/d1/d2"));
  EXPECT_TRUE(std::filesystem::exists(Dir.path() / "store/d1"));
  EXPECT_FALSE(S.remove(a));
  EXPECT_TRUE(S.remove(b));
  EXPECT_FALSE(std::filesystem::exists(Dir.path() / "store/d1"));
  EXPECT_TRUE(std::filesystem::exists(Dir.path() / "store"));
  // A removed object can be saved again.
  S.save(a, "C", 2, bytes_of("again"));
  EXPECT_EQ(S.load(a).info.layout_hash, 2u);
}

TEST_F(StoreTest, ListAndScan) {
  EXPECT_TRUE(S.list().empty()); // root does not exist yet
  for (const char *a : {"z", "data/b", "data/a", "data/set/x", "other"})
    S.save(Address::parse(a), "C", 1, {});
  std::vector<std::string> names;
  for (const Address &a : S.list())
    names.push_back(a.str());
  EXPECT_THAT(names, ::testing::ElementsAre("data/a", "data/b", "data/set/x", "other", "z"));
  EXPECT_EQ(S.list("data/").size(), 3u);
  EXPECT_EQ(S.list("data/set").size(), 1u);

  std::ofstream(Dir.path() / "store/data/README") << "not a record";
  std::ofstream(Dir.path() / "store/data/.b.pobj.99.0.tmp") << "left by a crash";
  std::ofstream(Dir.path() / "store/data/bad name.pobj") << "invalid address";
  std::ofstream(Dir.path() / "store/.notes.tmp") << "someone else's";
  ScanResult r = S.scan();
  EXPECT_EQ(r.objects.size(), 5u);
  ASSERT_EQ(r.temporaries.size(), 1u);
  EXPECT_EQ(r.temporaries[0].filename(), ".b.pobj.99.0.tmp");
  EXPECT_EQ(r.foreign.size(), 3u);
  EXPECT_EQ(S.list().size(), 5u);
}

TEST_F(StoreTest, CleanRemovesOnlyOldTemporaries) {
  auto a = Address::parse("data/b");
  S.save(a, "C", 1, bytes_of("kept"));
  std::ofstream(Dir.path() / "store/data/.b.pobj.99.0.tmp") << "left by a crash";
  std::ofstream(Dir.path() / "store/data/.notes.tmp") << "someone else's";
  EXPECT_EQ(S.clean(std::chrono::hours(1)), 0u);
  EXPECT_EQ(S.scan().temporaries.size(), 1u);
  EXPECT_EQ(S.clean(std::chrono::seconds(0)), 1u);
  EXPECT_TRUE(S.scan().temporaries.empty());
  EXPECT_TRUE(std::filesystem::exists(Dir.path() / "store/data/.notes.tmp"));
  EXPECT_EQ(string_of(S.load(a).payload), "kept");
}

TEST_F(StoreTest, DoesNotFollowSymbolicLinks) {
  TempDir outside;
  S.save(Address::parse("inside/x"), "C", 1, {});
  std::filesystem::create_directory_symlink(outside.path(), Dir.path() / "store/evil");
  std::ofstream(outside.path() / "x.pobj") << "outside";
  EXPECT_THROW(S.contains(Address::parse("evil/x")), store_error);
  std::filesystem::remove(outside.path() / "x.pobj");
  store_error e = error_of([&] { S.save(Address::parse("evil/x"), "C", 1, {}); });
  EXPECT_EQ(e.kind(), store_errc::io);
  EXPECT_THAT(e.what(), HasSubstr("symbolic links are not followed"));
  EXPECT_TRUE(std::filesystem::is_empty(outside.path()));

  std::ofstream(outside.path() / "target.pobj") << "x";
  std::filesystem::create_symlink(outside.path() / "target.pobj",
                                  Dir.path() / "store/inside/link.pobj");
  EXPECT_THAT(error_of([&] { S.load(Address::parse("inside/link")); }).what(),
              HasSubstr("symbolic link"));
}

TEST_F(StoreTest, SpecialFilesAreRejectedNotWaitedOn) {
  S.save(Address::parse("d/ok"), "C", 1, {});
  ASSERT_EQ(::mkfifo((Dir.path() / "store/d/fifo.pobj").c_str(), 0600), 0);
  std::filesystem::create_directory(Dir.path() / "store/d/dir.pobj");
  EXPECT_THAT(error_of([&] { S.load(Address::parse("d/fifo")); }).what(),
              HasSubstr("not a regular file"));
  EXPECT_THAT(error_of([&] { S.load(Address::parse("d/dir")); }).what(),
              HasSubstr("not a regular file"));
  EXPECT_EQ(S.list().size(), 1u);
}

TEST_F(StoreTest, DetectsMovedRecord) {
  auto a = Address::parse("orig");
  S.save(a, "C", 1, bytes_of("x"));
  std::filesystem::copy_file(S.file_of(a), Dir.path() / "store/copy.pobj");
  store_error e = error_of([&] { S.load(Address::parse("copy")); });
  EXPECT_EQ(e.kind(), store_errc::corrupt);
  EXPECT_THAT(e.what(), HasSubstr("belongs to object 'orig'"));
}

TEST_F(StoreTest, ReportsForeignFormatVersion) {
  auto a = Address::parse("future");
  S.save(a, "C", 1, bytes_of("x"));
  std::fstream f(S.file_of(a), std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(8);
  f.put(2); // format version 2
  f.close();
  store_error e = error_of([&] { S.load(a); });
  EXPECT_EQ(e.kind(), store_errc::unsupported_version);
  EXPECT_THAT(e.what(), HasSubstr("object 'future'"));
  EXPECT_THAT(e.what(), HasSubstr("format version 2; this program reads version 1"));
}

TEST(StoreRoot, DefaultRootFromEnvironment) {
  auto keep = [](const char *n) {
    const char *v = std::getenv(n);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  auto old_store = keep("POC_STORE"), old_xdg = keep("XDG_DATA_HOME"), old_home = keep("HOME");
  ::setenv("POC_STORE", "/srv/poc", 1);
  EXPECT_EQ(Store::default_root(), "/srv/poc");
  ::setenv("POC_STORE", "rel/store", 1);
  EXPECT_EQ(Store::default_root(), std::filesystem::current_path() / "rel/store");
  ::setenv("POC_STORE", "", 1);
  ::setenv("XDG_DATA_HOME", "/xdg", 1);
  EXPECT_EQ(Store::default_root(), "/xdg/poc/store");
  ::setenv("XDG_DATA_HOME", "relative", 1); // ignored, as the XDG spec says
  ::setenv("HOME", "/home/u", 1);
  EXPECT_EQ(Store::default_root(), "/home/u/.local/share/poc/store");
  ::unsetenv("XDG_DATA_HOME");
  ::unsetenv("HOME");
  EXPECT_EQ(error_of([] { Store::default_root(); }).kind(), store_errc::no_root);
  auto restore = [](const char *n, const std::optional<std::string> &v) {
    if (v)
      ::setenv(n, v->c_str(), 1);
    else
      ::unsetenv(n);
  };
  restore("POC_STORE", old_store);
  restore("XDG_DATA_HOME", old_xdg);
  restore("HOME", old_home);
  EXPECT_THROW(Store(""), store_error);
}

TEST(StoreRoot, NonDurableStoreWorksTheSame) {
  TempDir dir;
  Store s(dir.path() / "fast", StoreOptions{.durable = false});
  auto a = Address::parse("k");
  s.save(a, "C", 1, bytes_of("v"));
  EXPECT_EQ(string_of(s.load(a).payload), "v");
  EXPECT_TRUE(s.remove(a));
}

} // namespace
