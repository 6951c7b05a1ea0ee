//===- type_registry_test.cpp - Names, aliases and conflicts --------------===//
#include "round_trip.hpp"
#include "shapes.hpp"

#include <stdexcept>
#include <string>

namespace shapes {
/// A class template instance, to check that POC_REGISTER_TYPE accepts
/// template arguments with commas.
template <class A, class B> class Holder : public Shape {
public:
  double area() const override { return 0; }
  A a{};
  B b{};
  void poc_write(poc::Writer &w) const { w.write_all(label, a, b); }
  void poc_read(poc::Reader &r) { r.read_all(label, a, b); }
};
} // namespace shapes

POC_REGISTER_TYPE(shapes::Holder<int, double>);

namespace {

using poc::TypeRegistry;

TEST(TypeRegistry, FindsRegisteredTypesByTypeAndName) {
  const TypeRegistry::Entry *by_type = TypeRegistry::find(typeid(shapes::Circle));
  ASSERT_NE(by_type, nullptr);
  EXPECT_EQ(by_type->name, "shapes::Circle");
  EXPECT_EQ(TypeRegistry::find("shapes::Circle"), by_type);
  EXPECT_NE(by_type->create, nullptr);
  EXPECT_EQ(TypeRegistry::find("shapes::Nothing"), nullptr);
  EXPECT_EQ(TypeRegistry::find(typeid(shapes::Unregistered)), nullptr);
  EXPECT_EQ(TypeRegistry::find(""), nullptr);
}

TEST(TypeRegistry, AbstractTypeCanBeWrittenButNotCreated) {
  const TypeRegistry::Entry *shape = TypeRegistry::find(typeid(shapes::Shape));
  ASSERT_NE(shape, nullptr);
  EXPECT_NE(shape->write, nullptr);
  EXPECT_EQ(shape->create, nullptr);
}

TEST(TypeRegistry, TemplateArgumentsWithCommas) {
  const TypeRegistry::Entry *e = TypeRegistry::find(typeid(shapes::Holder<int, double>));
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->name, "shapes::Holder<int, double>");

  shapes::Holder<int, double> h;
  h.a = 4;
  h.b = 0.5;
  shapes::Shape *as_shape = &h;
  std::unique_ptr<shapes::Shape> back(poc::test::round_trip(as_shape));
  auto *typed = dynamic_cast<shapes::Holder<int, double> *>(back.get());
  ASSERT_NE(typed, nullptr);
  EXPECT_EQ(typed->a, 4);
  EXPECT_EQ(typed->b, 0.5);
}

TEST(TypeRegistry, SecondNameIsAnAliasAndRepeatsAreHarmless) {
  TypeRegistry::add<shapes::Square>("shapes::Square");
  TypeRegistry::add<shapes::Square>("Square");
  const TypeRegistry::Entry *e = TypeRegistry::find("Square");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e, TypeRegistry::find(typeid(shapes::Square)));
  EXPECT_EQ(e->name, "shapes::Square"); // the name written stays the first one
}

TEST(TypeRegistry, OneNameForTwoTypesIsRejected) {
  EXPECT_THROW(TypeRegistry::add<shapes::Unrelated>("shapes::Circle"), std::logic_error);
  EXPECT_EQ(TypeRegistry::find("shapes::Circle")->type, &typeid(shapes::Circle));
}

} // namespace
