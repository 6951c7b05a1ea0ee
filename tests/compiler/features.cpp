// Golden test of the classes of tests/e2e/features.cpp: namespaces,
// inheritance with virtual methods (calls through a base pointer, the
// derived server serving the base's ids), class templates, overloads,
// default and const methods, values, const and non-const references and
// pointers (copied back), STL types and generated serializers with private
// fields.
// RUN: %pocxx --translate-only %S/../e2e/features.cpp -o - | FileCheck %s

// Classes in namespaces: qualified names in ids, identifiers from them.
// CHECK-LABEL: struct geo_Rect_interface {
// CHECK-NEXT: static constexpr const char *class_name = "geo::Rect";
// CHECK-NEXT: enum : std::uint64_t {
// The ids of methods that carry a user class hash its layout too, so a
// program built with another geo::Point cannot misread them.
// CHECK-NEXT: ctor_0 = ::poc::method_id("geo::Rect::Rect(geo::Point, geo::Point)|geo::Point{double x;double y;}"),
// CHECK-NEXT: area_0 = ::poc::method_id("geo::Rect::area() const"),
// CHECK-NEXT: move_0 = ::poc::method_id("geo::Rect::move(const geo::Point &)|geo::Point{double x;double y;}"),
// CHECK: grow_0 = ::poc::method_id("geo::Rect::grow(geo::Point &)|geo::Point{double x;double y;}"),

// Templates: one interface per instantiation; overloads numbered in order.
// CHECK-LABEL: struct Accumulator_double_interface {
// CHECK-NEXT: static constexpr const char *class_name = "Accumulator<double>";
// CHECK: add_0 = ::poc::method_id("Accumulator<double>::add(double)"),
// CHECK-NEXT: add_1 = ::poc::method_id("Accumulator<double>::add(double, int)"),
// CHECK: static int n_0(const ::Accumulator<double> *self, int scale = 1);

// The base class's client serves calls through `Shape*`.
// CHECK: ::poc_gen::geo_Shape_client::area_0(s)
// CHECK: ::poc::destroy(s);
// CHECK: ::poc_gen::Accumulator_double_client::create_0("m");
// CHECK: ::poc_gen::Accumulator_double_client::add_1(acc, 2.0, 3);
// CHECK: ::poc_gen::Store_client::create_0("m");

// Serializers: public fields directly, private ones through the access
// technique, base classes first.
// CHECK-LABEL: // poc++: serializer of class 'geo::Point'.
// CHECK: template <> struct Serializer<::geo::Point> {
// CHECK-NEXT: static void write(Writer &w, const ::geo::Point &v) {
// CHECK-NEXT: w.write(v.x);
// CHECK-NEXT: w.write(v.y);
// CHECK-LABEL: // poc++: serializer of class 'Record'.
// CHECK: template struct field_access<Record__name, &::Record::name>;
// CHECK: w.write((v.*poc_field(poc_gen::Record__name{})));

// Non-const references and pointers to objects are copied back, in order.
// CHECK-LABEL: inline void poc_gen::geo_Rect_client::grow_0(::geo::Rect *self,
// CHECK: auto reply = call.invoke_reply();
// CHECK-NEXT: reply.copy_back(p);
// CHECK-NEXT: reply.result();
// CHECK-LABEL: inline void poc_gen::Store_client::fill_0(const ::Store *self, int &count,
// CHECK: call.args(count, p);
// CHECK-NEXT: auto reply = call.invoke_reply();
// CHECK-NEXT: reply.copy_back(count, p);

// The derived server also dispatches the ids of its base's methods.
// CHECK-LABEL: struct geo_Rect_server : geo_Rect_interface {
// CHECK: case ::poc::method_id("geo::Shape::area() const"):
// CHECK-NEXT: rq.invoke(self, static_cast<double (::geo::Shape::*)() const>(
// CHECK: return rq.construct<::geo::Rect, ::geo::Point, ::geo::Point>();
// CHECK: inline const ::poc::ClassRegistration<::geo::Rect, geo_Rect_server>
