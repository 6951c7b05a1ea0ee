// The argument encodings of <poc/gen/arguments.hpp>: what a client writes, a
// server parameter decodes and copies back, and the client reads back.

#include <poc/gen/arguments.hpp>
#include <poc/process_group.hpp>
#include <poc/serialize.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

namespace {

using poc::detail::ArgCodec;
using poc::detail::ParamSlot;

/// Client write -> server slot -> (copy-back) -> client read-back.
template <class P, class A> void round_trip(A &arg, const std::function<void(P)> &serve) {
  poc::Writer w;
  ArgCodec<std::remove_cvref_t<A>>::write(w, arg);
  poc::MemoryBlockSource blocks(w.out_of_band());
  poc::Reader r(w.bytes(), &blocks);
  ParamSlot<P> slot;
  slot.read(r);
  r.expect_end();
  serve(slot.get());
  if constexpr (ParamSlot<P>::copies_back) {
    poc::Writer back;
    slot.write_back(back);
    poc::MemoryBlockSource back_blocks(back.out_of_band());
    poc::Reader rb(back.bytes(), &back_blocks);
    ArgCodec<std::remove_cvref_t<A>>::read_back(rb, arg);
    rb.expect_end();
  }
}

TEST(Arguments, ValuesAndReferences) {
  int x = 5;
  round_trip<int &>(x, [](int &v) { v *= 3; });
  EXPECT_EQ(x, 15);
  std::string s = "abc";
  round_trip<const std::string &>(s, [](const std::string &v) { EXPECT_EQ(v, "abc"); });
  std::vector<int> v{1, 2, 3};
  round_trip<std::vector<int>>(v, [](std::vector<int> got) { EXPECT_EQ(got.size(), 3u); });
}

TEST(Arguments, PointerToClassIsCopiedBack) {
  std::string s = "ab";
  std::string *p = &s;
  round_trip<std::string *>(p, [](std::string *q) {
    ASSERT_NE(q, nullptr);
    *q += "cd";
  });
  EXPECT_EQ(s, "abcd");
  std::string *null = nullptr;
  round_trip<std::string *>(null, [](std::string *q) { EXPECT_EQ(q, nullptr); });
}

TEST(Arguments, PointerToScalarAndCString) {
  double d = 1.5;
  double *pd = &d;
  round_trip<double *>(pd, [](double *q) { *q = 2.5; });
  EXPECT_EQ(d, 2.5);
  const char *text = "hello";
  round_trip<const char *>(text, [](const char *q) { EXPECT_STREQ(q, "hello"); });
}

TEST(Arguments, CountedArraysSmallAndOutOfBand) {
  for (std::size_t n : {std::size_t{3}, std::size_t{100000}}) {
    std::vector<double> v(n);
    std::iota(v.begin(), v.end(), 0.0);
    auto c = poc::counted(v.data(), v.size());
    round_trip<double *>(c, [n](double *q) {
      EXPECT_EQ(q[n - 1], static_cast<double>(n - 1));
      for (std::size_t i = 0; i < n; ++i)
        q[i] *= 2;
    });
    EXPECT_EQ(v[n - 1], 2.0 * static_cast<double>(n - 1));
  }
}

TEST(Arguments, RemoteArrayReferencesStayReferences) {
  // A slot for a 16-element remote array; its address is never dereferenced.
  auto *base =
      static_cast<double *>(poc::reference_to(poc::ProcessId{3, 1, 77}, 16 * sizeof(double)));
  double *p = base + 5;
  ASSERT_TRUE(poc::is_remote(p));
  round_trip<double *>(p, [&](double *q) { EXPECT_EQ(q, base + 5); });
  EXPECT_EQ(poc::remote_id(p), (poc::ProcessId{3, 1, 77}));
}

TEST(Arguments, BadTagsAndCountsAreDecodeErrors) {
  auto decode = [](std::vector<std::uint8_t> raw) {
    std::vector<std::byte> b(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i)
      b[i] = std::byte{raw[i]};
    poc::Reader r(b);
    ParamSlot<double *> slot;
    slot.read(r);
  };
  EXPECT_THROW(decode({9}), poc::decode_error);
  EXPECT_THROW(decode({3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}), poc::decode_error);
  EXPECT_THROW(decode({2}), poc::decode_error);
}

/// A member of a process group: its pointers are references only.
class Member : public poc::ProcessGroupMember {};
/// A class that cannot be copied (no Serializer, not polymorphic).
struct Handle {
  std::mutex lock;
};

TEST(Arguments, PointersToGroupMembersAreReferencesOnly) {
  static_assert(poc::detail::is_reference_only_v<Member>);
  static_assert(poc::detail::is_reference_only_v<const Handle>);
  static_assert(!poc::detail::is_reference_only_v<std::string>);
  Member *group[] = {
      static_cast<Member *>(poc::reference_to(poc::ProcessId{2, 0, 31}, sizeof(Member))), nullptr};
  auto counted_group = poc::counted(&group[0], 2);
  round_trip<Member *const *>(counted_group, [&](Member *const *q) {
    EXPECT_EQ(q[0], group[0]);
    EXPECT_EQ(q[1], nullptr);
  });
  // The same bytes as the serializer's pointer form, which the class's
  // inherited Serializer would otherwise compile a copy for.
  poc::Writer ours;
  ArgCodec<Member *>::write(ours, group[0]);
  poc::Writer serializer;
  serializer.write(group[0]);
  EXPECT_EQ(ours.bytes().size(), serializer.bytes().size());
  EXPECT_TRUE(std::equal(ours.bytes().begin(), ours.bytes().end(), serializer.bytes().begin()));
  Handle *handle = static_cast<Handle *>(poc::reference_to(poc::ProcessId{2, 0, 32}, 8));
  round_trip<Handle *>(handle, [&](Handle *q) { EXPECT_EQ(q, handle); });
}

TEST(Arguments, LocalObjectsBehindReferenceOnlyPointersAreErrors) {
  Member local;
  poc::Writer w;
  EXPECT_THROW(ArgCodec<Member *>::write(w, &local), poc::encode_error);
  std::vector<std::byte> copy_tag{std::byte{2}};
  poc::Reader r(copy_tag);
  ParamSlot<Handle *> slot;
  EXPECT_THROW(slot.read(r), poc::decode_error);
}

TEST(Arguments, ReferencesAreInterned) {
  poc::ProcessId id{1, 0, 4242};
  void *a = poc::reference_to(id, 8);
  void *b = poc::reference_to(id, 8);
  EXPECT_EQ(a, b);
  EXPECT_TRUE(poc::is_remote(static_cast<char *>(a) + 100));
  EXPECT_EQ(poc::remote_id(static_cast<char *>(a) + 100), id);
  int local = 0;
  EXPECT_FALSE(poc::is_remote(&local));
  EXPECT_FALSE(poc::is_remote(nullptr));
  EXPECT_THROW(poc::remote_id(&local), poc::usage_error);
}

} // namespace
