//===- tests/persist/corruption_test.cpp - Damaged record files -----------===//
//
// Every single-byte change and every truncation of a record file must give a
// clear store_error naming the object, and leave the rest of the store
// usable; a new save repairs the object.
//
//===----------------------------------------------------------------------===//
#include "poc/persist/error.hpp"
#include "poc/persist/store.hpp"
#include "temp_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

using namespace poc::persist;
using poc::persist::testing::TempDir;
using ::testing::HasSubstr;

namespace {

std::vector<char> read_file(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_file(const std::filesystem::path &p, const std::vector<char> &bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

class CorruptionTest : public ::testing::Test {
protected:
  void SetUp() override {
    for (int i = 0; i < 100; ++i)
      Payload.push_back(static_cast<std::byte>(i * 7 + 3));
    S.save(Target, "ns::Victim", 0xfeedull, Payload);
    S.save(Neighbour, "ns::Other", 7, Payload);
    S.save(Elsewhere, "ns::Other", 7, Payload);
    Original = read_file(S.file_of(Target));
  }

  /// Loading the target fails with a clear store_error naming it; so does
  /// reading its header alone, unless only the payload is damaged.
  void expect_clear_error(const std::string &what_was_done) {
    for (bool header_only : {false, true}) {
      try {
        if (header_only)
          S.info(Target);
        else
          S.load(Target);
        if (header_only)
          continue; // a damaged payload is only seen by load()
        ADD_FAILURE() << "no error after " << what_was_done;
      } catch (const store_error &e) {
        EXPECT_EQ(e.address(), Target.str()) << what_was_done;
        EXPECT_THAT(e.what(), HasSubstr("object 'victim/obj'")) << what_was_done;
        EXPECT_THAT(e.what(), HasSubstr(S.file_of(Target).string())) << what_was_done;
        EXPECT_NE(e.kind(), store_errc::io) << what_was_done << ": " << e.what();
        EXPECT_NE(e.kind(), store_errc::not_found) << what_was_done << ": " << e.what();
      }
    }
  }

  /// The rest of the store still works.
  void expect_rest_usable(std::size_t objects = 3) {
    EXPECT_EQ(S.load(Neighbour, "ns::Other", 7).payload, Payload);
    EXPECT_EQ(S.load(Elsewhere, "ns::Other", 7).payload, Payload);
    EXPECT_EQ(S.list().size(), objects);
  }

  TempDir Dir;
  Store S{Dir.path(), StoreOptions{.durable = false}};
  Address Target = Address::parse("victim/obj");
  Address Neighbour = Address::parse("victim/next");
  Address Elsewhere = Address::parse("far/away");
  std::vector<std::byte> Payload;
  std::vector<char> Original;
};

TEST_F(CorruptionTest, EveryByteFlipped) {
  ASSERT_GT(Original.size(), 100u);
  for (std::size_t i = 0; i < Original.size(); ++i) {
    for (unsigned char mask : {0x01, 0x80, 0xff}) {
      std::vector<char> bad = Original;
      bad[i] = static_cast<char>(bad[i] ^ mask);
      write_file(S.file_of(Target), bad);
      expect_clear_error("flipping byte " + std::to_string(i) + " with mask " +
                         std::to_string(mask));
    }
  }
  expect_rest_usable();
  S.save(Target, "ns::Victim", 0xfeedull, Payload);
  EXPECT_EQ(S.load(Target).payload, Payload);
}

TEST_F(CorruptionTest, EveryTruncation) {
  for (std::size_t n = 0; n < Original.size(); ++n) {
    write_file(S.file_of(Target), std::vector<char>(Original.begin(), Original.begin() + n));
    try {
      S.load(Target);
      ADD_FAILURE() << "no error after truncating to " << n;
    } catch (const store_error &e) {
      EXPECT_EQ(e.kind(), store_errc::truncated) << n << ": " << e.what();
      EXPECT_THAT(e.what(), HasSubstr("truncated")) << n;
      EXPECT_EQ(e.address(), Target.str());
    }
  }
  expect_rest_usable();
}

TEST_F(CorruptionTest, TrailingBytes) {
  std::vector<char> longer = Original;
  longer.push_back('x');
  write_file(S.file_of(Target), longer);
  expect_clear_error("appending a byte");
  expect_rest_usable();
}

TEST_F(CorruptionTest, GarbageAndEmptyFiles) {
  write_file(S.file_of(Target), std::vector<char>(4096, 'A'));
  try {
    S.load(Target);
    ADD_FAILURE();
  } catch (const store_error &e) {
    EXPECT_EQ(e.kind(), store_errc::bad_magic);
    EXPECT_THAT(e.what(), HasSubstr("not a poc store record"));
  }
  write_file(S.file_of(Target), {});
  expect_clear_error("emptying the file");
  expect_rest_usable();
  EXPECT_TRUE(S.remove(Target));
  expect_rest_usable(2);
}

} // namespace
