// A program that encodes user classes itself, with poc::Writer and
// poc::Reader (as apps/dataflow does for its operands), gets their
// Serializers generated, also when the encoding happens inside the user's
// own templates and lambdas and for classes inside standard containers;
// classes that serialize themselves get none.
// RUN: %pocxx --translate-only %s -o %t.cpp
// RUN: %nochecks < %t.cpp | FileCheck %s
#include <poc/serialize.hpp>

#include <string>
#include <vector>

struct Point {
  double x = 0, y = 0;
};
struct Label {
  std::string text;
  Point where;
};
struct Tagged {
  int tag = 0;
};
struct OwnFormat {
  int value = 0;
  void poc_write(poc::Writer &w) const { w.write(value); }
  void poc_read(poc::Reader &r) { r.read(value); }
};

template <class T> std::vector<std::byte> encode(const T &value) {
  poc::Writer w;
  w.write(value);
  return w.take();
}

template <class T> auto decoder() {
  return [](std::vector<std::byte> bytes) {
    poc::Reader r(bytes);
    return r.read<T>();
  };
}

int main() {
  auto bytes = encode(std::vector<Label>{{"origin", {0, 0}}});
  auto tagged = decoder<Tagged>()(encode(Tagged{3}));
  OwnFormat own;
  poc::Writer w;
  w.write(own);
  return static_cast<int>(bytes.size()) + tagged.tag;
}

// CHECK-DAG: template <> struct Serializer<::Point> {
// CHECK-DAG: template <> struct Serializer<::Label> {
// CHECK-DAG: template <> struct Serializer<::Tagged> {
// CHECK-NOT: Serializer<::OwnFormat>
