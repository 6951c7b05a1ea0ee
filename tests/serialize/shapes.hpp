//===- shapes.hpp - A small polymorphic hierarchy for the pointer tests ---===//
#pragma once

#include "poc/serialize.hpp"

#include <string>

namespace shapes {

/// Abstract base, serialized (like poc++ would) through its own fields.
class Shape {
public:
  virtual ~Shape() = default;
  virtual double area() const = 0;
  std::string label;
};

class Circle : public Shape {
public:
  double area() const override { return 3 * radius * radius; }
  double radius = 0;
};

class Square : public Shape {
public:
  double area() const override { return side * side; }
  double side = 0;
};

/// A second polymorphic base, so that Shape sits at a non-zero offset in
/// Tagged and pointer conversions must adjust the address.
class Tag {
public:
  virtual ~Tag() = default;
  int tag = 0;
};

class Tagged : public Tag, public Shape {
public:
  double area() const override { return 0; }
  long payload = 0;
};

/// Polymorphic but unrelated to Shape.
class Unrelated {
public:
  virtual ~Unrelated() = default;
  int x = 0;
};

/// Derived from Shape but never registered.
class Unregistered : public Shape {
public:
  double area() const override { return 1; }
};

/// A process class: only ever sent as a reference.
class Worker {
public:
  int id = 0;
};

} // namespace shapes

template <> struct poc::Serializer<shapes::Shape> {
  static void write(Writer &w, const shapes::Shape &s) { w.write(s.label); }
  static void read(Reader &r, shapes::Shape &s) { r.read(s.label); }
};
template <> struct poc::Serializer<shapes::Circle> {
  static void write(Writer &w, const shapes::Circle &c) {
    Serializer<shapes::Shape>::write(w, c);
    w.write(c.radius);
  }
  static void read(Reader &r, shapes::Circle &c) {
    Serializer<shapes::Shape>::read(r, c);
    r.read(c.radius);
  }
};
template <> struct poc::Serializer<shapes::Square> {
  static void write(Writer &w, const shapes::Square &s) {
    Serializer<shapes::Shape>::write(w, s);
    w.write(s.side);
  }
  static void read(Reader &r, shapes::Square &s) {
    Serializer<shapes::Shape>::read(r, s);
    r.read(s.side);
  }
};
template <> struct poc::Serializer<shapes::Tagged> {
  static void write(Writer &w, const shapes::Tagged &t) {
    w.write(t.tag);
    Serializer<shapes::Shape>::write(w, t);
    w.write(t.payload);
  }
  static void read(Reader &r, shapes::Tagged &t) {
    r.read(t.tag);
    Serializer<shapes::Shape>::read(r, t);
    r.read(t.payload);
  }
};
template <> struct poc::Serializer<shapes::Unrelated> {
  static void write(Writer &w, const shapes::Unrelated &u) { w.write(u.x); }
  static void read(Reader &r, shapes::Unrelated &u) { r.read(u.x); }
};
template <> struct poc::Serializer<shapes::Unregistered> {
  static void write(Writer &w, const shapes::Unregistered &u) {
    Serializer<shapes::Shape>::write(w, u);
  }
  static void read(Reader &r, shapes::Unregistered &u) { Serializer<shapes::Shape>::read(r, u); }
};

POC_REGISTER_TYPE(shapes::Shape);
POC_REGISTER_TYPE(shapes::Circle);
POC_REGISTER_TYPE(shapes::Square);
POC_REGISTER_TYPE(shapes::Tagged);
POC_REGISTER_TYPE(shapes::Unrelated);
