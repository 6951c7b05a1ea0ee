// Persistent processes in the language: a persistent creation becomes
// make_persistent with the constructor's id, the paper's "poc://" literal
// becomes poc::persistent<T> where it initialises or is assigned to a class
// pointer and stays a string elsewhere, and every served class whose state
// can be saved gets a Serializer and a LayoutHash that spells its layout out.
// RUN: %pocxx --translate-only %s -o %t.cpp
// RUN: %nochecks < %t.cpp | FileCheck %s
#include <string>
#include <vector>

struct Point {
  double x = 0, y = 0;
};

class Track {
public:
  Track() = default;
  Track(std::string name, int capacity) : name_(std::move(name)), capacity_(capacity) {}
  void add(Point p) { points_.push_back(p); }
  std::size_t size() const { return points_.size(); }

private:
  std::string name_;
  int capacity_ = 0;
  std::vector<Point> points_;
};

Track *reopen() {
  return "poc://tracks/a";
  // CHECK: return ::poc::persistent<::Track>("tracks/a");
}

// The client wrapper of the persistent creation, declared before main.
// CHECK-LABEL: struct Track_client : Track_interface {
// CHECK: static ::Track *make_persistent_1(const ::poc::persistent_at &where, ::std::string name, int capacity);

int main() {
  Track *t = new (poc::persistent_at("m", "tracks/a")) Track("a", 8);
  // CHECK: Track *t = ::poc_gen::Track_client::make_persistent_1(poc::persistent_at("m", "tracks/a"), "a", 8);
  Track *u = "poc://tracks/a";
  // CHECK: Track *u = ::poc::persistent<::Track>("tracks/a");
  u = "poc://tracks/b";
  // CHECK: u = ::poc::persistent<::Track>("tracks/b");
  std::string text = "poc://tracks/a";
  // CHECK: std::string text = "poc://tracks/a";
  const char *raw = "poc://tracks/a";
  // CHECK: const char *raw = "poc://tracks/a";
  Track *v = poc::persistent<Track>("tracks/a");
  // CHECK: Track *v = poc::persistent<Track>("tracks/a");
  t->add(Point{1, 2});
  delete reopen();
  return static_cast<int>(u->size() + v->size() + text.size()) + (raw != nullptr);
}

// Field classes first; each layout names the classes its state reaches.
// CHECK: template <> struct Serializer<::Point> {
// CHECK: template <> struct LayoutHash<::Point> {
// CHECK-NEXT: {{\[\[maybe_unused\]\] }}static constexpr std::uint64_t value = ::poc::layout_hash("Point{double x;double y;}");
// CHECK: template <> struct Serializer<::Track> {
// CHECK: template <> struct LayoutHash<::Track> {
// CHECK-NEXT: {{\[\[maybe_unused\]\] }}static constexpr std::uint64_t value = ::poc::layout_hash("Track{std::basic_string<char, std::char_traits<char>, std::allocator<char>> name_;int capacity_;std::vector<Point, std::allocator<Point>> points_;}Point{double x;double y;}");

// CHECK: return ::poc::make_persistent<::Track>(where.where(), where.address(), Track_interface::ctor_1, name, capacity);
