//===- fuzz_message.hpp - The message type the decode fuzzer feeds --------===//
//
// One type that reaches every decoding path: scalars, bools, strings of
// several character types, bitwise and element-wise vectors, maps, sets,
// optional, variant, tuples, polymorphic objects through unique_ptr,
// shared_ptr and raw pointers, references to processes, and recursion
// through unique_ptr.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize.hpp"

#include <array>
#include <complex>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace fuzz {

class Shape {
public:
  virtual ~Shape() = default;
  std::string label;
};

class Circle : public Shape {
public:
  double radius = 0;
};

class Polygon : public Shape {
public:
  std::vector<std::pair<float, float>> corners;
};

/// A process class: no Serializer, only references to it travel.
class Worker {
public:
  int state = 0;
};

/// Recursion through unique_ptr.
struct Node {
  std::int8_t value = 0;
  std::unique_ptr<Node> next;
  void poc_write(poc::Writer &w) const { w.write_all(value, next); }
  void poc_read(poc::Reader &r) { r.read_all(value, next); }
};

struct Message {
  std::int32_t id = 0;
  bool urgent = false;
  std::string name;
  std::vector<double> values;
  std::vector<std::string> tags;
  std::map<std::string, std::int64_t> counts;
  std::set<std::int16_t> keys;
  std::optional<std::u16string> note;
  std::variant<std::monostate, bool, std::string, std::array<std::uint8_t, 4>> choice;
  std::unique_ptr<Shape> shape;
  std::shared_ptr<const Shape> shared;
  Shape *raw = nullptr;     // owned unless it is a process reference
  Worker *worker = nullptr; // always a process reference or null
  std::vector<bool> flags;
  std::deque<std::list<int>> lists;
  std::tuple<char, float, std::complex<double>> misc;
  std::unique_ptr<Node> chain;

  Message() = default;
  Message(const Message &) = delete;
  Message &operator=(const Message &) = delete;
  ~Message() {
    if (!poc::is_remote(raw))
      delete raw;
  }

  void poc_write(poc::Writer &w) const {
    w.write_all(id, urgent, name, values, tags, counts, keys, note, choice, shape, shared, raw,
                worker, flags, lists, misc, chain);
  }
  void poc_read(poc::Reader &r) {
    if (!poc::is_remote(raw))
      delete raw;
    raw = nullptr;
    r.read_all(id, urgent, name, values, tags, counts, keys, note, choice, shape, shared, raw,
               worker, flags, lists, misc, chain);
  }
};

} // namespace fuzz

template <> struct poc::Serializer<fuzz::Shape> {
  static void write(Writer &w, const fuzz::Shape &s) { w.write(s.label); }
  static void read(Reader &r, fuzz::Shape &s) { r.read(s.label); }
};
template <> struct poc::Serializer<fuzz::Circle> {
  static void write(Writer &w, const fuzz::Circle &c) {
    Serializer<fuzz::Shape>::write(w, c);
    w.write(c.radius);
  }
  static void read(Reader &r, fuzz::Circle &c) {
    Serializer<fuzz::Shape>::read(r, c);
    r.read(c.radius);
  }
};
template <> struct poc::Serializer<fuzz::Polygon> {
  static void write(Writer &w, const fuzz::Polygon &p) {
    Serializer<fuzz::Shape>::write(w, p);
    w.write(p.corners);
  }
  static void read(Reader &r, fuzz::Polygon &p) {
    Serializer<fuzz::Shape>::read(r, p);
    r.read(p.corners);
  }
};

POC_REGISTER_TYPE(fuzz::Shape);
POC_REGISTER_TYPE(fuzz::Circle);
POC_REGISTER_TYPE(fuzz::Polygon);
