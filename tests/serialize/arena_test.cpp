//===- arena_test.cpp - Process references through the runtime's arena ---===//
//
// Same serializer, real hooks: this binary links libpoc_runtime, whose
// remote arena defines poc::is_remote, remote_id and reference_to.
//
//===----------------------------------------------------------------------===//
#include "round_trip.hpp"

#include <map>
#include <vector>

namespace {

struct Worker {
  int state = 0;
};

struct Named {
  virtual ~Named() = default;
  int name = 0;
};

struct Base {
  virtual ~Base() = default;
  int base = 0;
};

/// Base sits at a non-zero offset: a Base* into a remote Derived is an
/// address inside the Derived's slot, not its start.
struct Derived : Named, Base {};

using poc::test::round_trip;

TEST(ArenaReference, RoundTripYieldsTheInternedAddress) {
  poc::ProcessId id{0, 0, 4242};
  auto *w = static_cast<Worker *>(poc::reference_to(id, sizeof(Worker)));
  ASSERT_TRUE(poc::is_remote(w));
  Worker *back = round_trip(w);
  EXPECT_EQ(back, w);
  EXPECT_EQ(poc::remote_id(back), id);
}

TEST(ArenaReference, BasePointerInsideTheSlotNamesTheSameProcess) {
  poc::ProcessId id{0, 0, 4243};
  auto *d = static_cast<Derived *>(poc::reference_to(id, sizeof(Derived)));
  Base *b = d; // static upcast: address arithmetic only, no dereference
  ASSERT_NE(static_cast<void *>(b), static_cast<void *>(d));
  Base *back = round_trip(b);
  ASSERT_TRUE(poc::is_remote(back));
  EXPECT_EQ(poc::remote_id(back), id);
}

TEST(ArenaReference, ReferencesInContainers) {
  std::map<int, Worker *> directory;
  for (std::uint64_t i = 0; i < 5; ++i)
    directory[static_cast<int>(i)] =
        static_cast<Worker *>(poc::reference_to({0, 0, 5000 + i}, sizeof(Worker)));
  directory[99] = nullptr;
  EXPECT_EQ(round_trip(directory), directory);
}

TEST(ArenaReference, InvalidProcessIdIsRejected) {
  poc::Writer w;
  w.write_byte(1);
  w.write(poc::ProcessId{-1, 0, 1});
  poc::Reader r(w.bytes());
  EXPECT_THROW(r.read<Worker *>(), poc::decode_error);
}

} // namespace
