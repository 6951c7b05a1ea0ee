//===- pointer_test.cpp - Pointers, references to processes, polymorphism -===//
#include "fake_arena.hpp"
#include "round_trip.hpp"
#include "shapes.hpp"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace shapes;
using poc::test::bytes;
using poc::test::round_trip;

struct Point {
  int x = 0, y = 0;
  void poc_write(poc::Writer &w) const { w.write_all(x, y); }
  void poc_read(poc::Reader &r) { r.read_all(x, y); }
};

Worker *remote_worker(std::int32_t host, std::uint64_t serial) {
  return static_cast<Worker *>(poc::reference_to({host, 0, serial}, sizeof(Worker)));
}

TEST(Pointer, NullIsTagZero) {
  Point *p = nullptr;
  EXPECT_EQ(poc::test::encode(p), bytes({0}));
  EXPECT_EQ(round_trip(p), nullptr);
}

TEST(Pointer, LocalObjectIsCopiedAndReceiverOwnsTheCopy) {
  Point original{3, 4};
  Point *copy = round_trip(&original);
  ASSERT_NE(copy, nullptr);
  EXPECT_NE(copy, &original);
  EXPECT_EQ(copy->x, 3);
  EXPECT_EQ(copy->y, 4);
  delete copy;

  const Point *constant = &original;
  std::unique_ptr<const Point> const_copy(round_trip(constant));
  EXPECT_EQ(const_copy->y, 4);
}

TEST(Pointer, RemoteReferenceTravelsAsProcessId) {
  Worker *w = remote_worker(3, 77);
  ASSERT_TRUE(poc::is_remote(w));
  std::vector<std::byte> encoded = poc::test::encode(w);
  ASSERT_EQ(encoded.size(), 17u);
  EXPECT_EQ(encoded[0], std::byte{1});
  // Decoding yields the interned address for the same process.
  EXPECT_EQ(round_trip(w), w);
}

TEST(Pointer, ContainersOfReferencesKeepIdentity) {
  std::vector<Worker *> workers{remote_worker(1, 1), remote_worker(2, 2), nullptr,
                                remote_worker(1, 1)};
  std::vector<Worker *> back = round_trip(workers);
  EXPECT_EQ(back, workers);
  std::set<Worker *> set(workers.begin(), workers.end());
  EXPECT_EQ(round_trip(set), set);
}

TEST(Pointer, HostedLocalProcessIsSentAsReference) {
  Worker local;
  poc::ProcessId id{0, 0, 12};
  poc::test::host_locally(&local, id);
  Worker *received = round_trip(&local);
  poc::test::clear_hosted();
  EXPECT_TRUE(poc::is_remote(received));
  EXPECT_EQ(poc::remote_id(received), id);
}

TEST(Pointer, LocalObjectOfClassWithoutSerializerCannotBeSent) {
  Worker local; // a process class: only references to it can travel
  Worker *p = &local;
  poc::Writer w;
  EXPECT_THROW(w.write(p), poc::encode_error);
}

TEST(Pointer, HostedCheckUsesTheCompleteObjectOfAPolymorphicClass) {
  Tagged local;
  Shape *as_shape = &local;
  ASSERT_NE(static_cast<void *>(as_shape), static_cast<void *>(&local));
  poc::ProcessId id{0, 0, 13};
  poc::test::host_locally(&local, id);
  Shape *received = round_trip(as_shape);
  poc::test::clear_hosted();
  EXPECT_EQ(poc::remote_id(received), id);
}

TEST(Polymorphic, ObjectKeepsItsDynamicType) {
  Circle circle;
  circle.label = "c";
  circle.radius = 2;
  Shape *as_shape = &circle;
  std::unique_ptr<Shape> received(round_trip(as_shape));
  auto *c = dynamic_cast<Circle *>(received.get());
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->label, "c");
  EXPECT_EQ(c->radius, 2);
}

TEST(Polymorphic, StaticTypeNeedsNoName) {
  Circle circle;
  circle.radius = 1;
  Circle *p = &circle;
  std::vector<std::byte> encoded = poc::test::encode(p);
  EXPECT_EQ(encoded[1], std::byte{0}); // empty type name after the tag
  std::unique_ptr<Circle> received(round_trip(p));
  EXPECT_EQ(received->radius, 1);
}

TEST(Polymorphic, BaseAtNonZeroOffsetIsAdjusted) {
  Tagged tagged;
  tagged.tag = 5;
  tagged.label = "t";
  tagged.payload = 99;
  Shape *as_shape = &tagged;
  std::unique_ptr<Shape> received(round_trip(as_shape));
  auto *t = dynamic_cast<Tagged *>(received.get());
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->tag, 5);
  EXPECT_EQ(t->label, "t");
  EXPECT_EQ(t->payload, 99);
}

TEST(Polymorphic, SmartPointersAreDeep) {
  std::vector<std::unique_ptr<Shape>> shapes;
  shapes.push_back(std::make_unique<Circle>());
  shapes.push_back(nullptr);
  auto square = std::make_unique<Square>();
  square->side = 3;
  shapes.push_back(std::move(square));
  std::vector<std::unique_ptr<Shape>> back = round_trip(shapes);
  ASSERT_EQ(back.size(), 3u);
  EXPECT_NE(dynamic_cast<Circle *>(back[0].get()), nullptr);
  EXPECT_EQ(back[1], nullptr);
  EXPECT_EQ(back[2]->area(), 9);

  std::shared_ptr<const Shape> shared = std::make_shared<Square>();
  std::shared_ptr<const Shape> shared_back = round_trip(shared);
  EXPECT_NE(shared_back, shared);
  EXPECT_NE(dynamic_cast<const Square *>(shared_back.get()), nullptr);

  EXPECT_EQ(*round_trip(std::make_unique<int>(7)), 7);
  EXPECT_EQ(*round_trip(std::make_shared<std::string>("s")), "s");
  EXPECT_EQ(round_trip(std::unique_ptr<int>()), nullptr);
  EXPECT_EQ(round_trip(std::shared_ptr<Point>()), nullptr);
}

TEST(Polymorphic, SharedPointersToOneObjectArriveAsSeparateCopies) {
  auto one = std::make_shared<std::string>("shared");
  std::pair<std::shared_ptr<std::string>, std::shared_ptr<std::string>> two{one, one};
  auto back = round_trip(two);
  EXPECT_EQ(*back.first, "shared");
  EXPECT_EQ(*back.second, "shared");
  EXPECT_NE(back.first, back.second);
}

TEST(Polymorphic, UnregisteredDynamicTypeCannotBeSent) {
  Unregistered u;
  Shape *p = &u;
  poc::Writer w;
  try {
    w.write(p);
    FAIL() << "expected encode_error";
  } catch (const poc::encode_error &e) {
    EXPECT_NE(std::string(e.what()).find("shapes::Unregistered"), std::string::npos) << e.what();
  }
}

TEST(Polymorphic, UnknownTypeNameIsRejectedByName) {
  poc::Writer w;
  w.write_byte(2); // inline object
  std::string name = "shapes::Hexagon";
  w.write_size(name.size());
  w.write_bytes(name.data(), name.size());
  poc::Reader r(w.bytes());
  try {
    r.read<Shape *>();
    FAIL() << "expected decode_error";
  } catch (const poc::decode_error &e) {
    EXPECT_NE(std::string(e.what()).find("shapes::Hexagon"), std::string::npos) << e.what();
  }
}

TEST(Polymorphic, TypeNotDerivedFromTheStaticTypeIsRejected) {
  Unrelated u;
  u.x = 1;
  Unrelated *p = &u;
  poc::Writer w;
  w.write_byte(2);
  std::string name = "shapes::Unrelated";
  w.write_size(name.size());
  w.write_bytes(name.data(), name.size());
  w.write(u.x);
  poc::Reader r(w.bytes());
  EXPECT_THROW(r.read<Shape *>(), poc::decode_error);
  // The same bytes are fine as an Unrelated* (name of the static type).
  poc::Reader ok(w.bytes());
  std::unique_ptr<Unrelated> back(ok.read<Unrelated *>());
  EXPECT_EQ(back->x, p->x);
}

TEST(Polymorphic, AbstractStaticTypeWithoutNameIsRejected) {
  std::vector<std::byte> r1_data = bytes({2, 0, 0});
  poc::Reader r1(r1_data);
  EXPECT_THROW(r1.read<Shape *>(), poc::decode_error);
  std::vector<std::byte> r2_data = bytes({2, 0, 0});
  poc::Reader r2(r2_data);
  EXPECT_THROW(r2.read<std::unique_ptr<Shape>>(), poc::decode_error);
}

TEST(Polymorphic, ProcessReferenceCannotBeOwnedBySmartPointer) {
  Worker *w = remote_worker(1, 5);
  std::vector<std::byte> encoded = poc::test::encode(w);
  poc::Reader r(encoded);
  EXPECT_THROW(r.read<std::unique_ptr<Worker>>(), poc::decode_error);
  poc::Reader r2(encoded);
  EXPECT_THROW(r2.read<std::shared_ptr<Worker>>(), poc::decode_error);
}

} // namespace
