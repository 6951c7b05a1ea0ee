#pragma once
// A persistent process class for the persistence tests, with its interface,
// client and server written by hand in the shape poc++ generates
// (docs/runtime.md 3.2, 3.3). Its state is written by poc_write/poc_read.

#include <poc/gen/runtime.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ptest {

/// A running total and the history of what was added.
class Tally {
public:
  Tally() = default;
  explicit Tally(std::int64_t start) : total_(start) {}

  std::int64_t add(std::int64_t d) {
    total_ += d;
    history_.push_back(d);
    return total_;
  }
  std::int64_t total() const { return total_; }
  std::uint64_t steps() const { return history_.size(); }

  /// Bumped when the fields change, so old records are refused.
  static constexpr std::uint64_t poc_layout_hash = 1;
  void poc_write(poc::Writer &w) const { w.write_all(total_, history_); }
  void poc_read(poc::Reader &r) { r.read_all(total_, history_); }

private:
  std::int64_t total_ = 0;
  std::vector<std::int64_t> history_;
};

struct Tally_interface {
  static constexpr const char *class_name = "ptest::Tally";
  enum : std::uint64_t {
    ctor_0 = ::poc::method_id("ptest::Tally::Tally()"),
    ctor_1 = ::poc::method_id("ptest::Tally::Tally(std::int64_t)"),
    add_0 = ::poc::method_id("ptest::Tally::add(std::int64_t)"),
    total_0 = ::poc::method_id("ptest::Tally::total() const"),
    steps_0 = ::poc::method_id("ptest::Tally::steps() const"),
  };
};

struct Tally_client : Tally_interface {
  static std::int64_t add_0(Tally *self, std::int64_t d) {
    if (!::poc::is_remote(self))
      return self->add(d);
    ::poc::Call call(self, Tally_interface::add_0);
    call.args(d);
    return call.invoke<std::int64_t>();
  }
  static std::int64_t total_0(const Tally *self) {
    if (!::poc::is_remote(self))
      return self->total();
    ::poc::Call call(self, Tally_interface::total_0);
    return call.invoke<std::int64_t>();
  }
  static std::uint64_t steps_0(const Tally *self) {
    if (!::poc::is_remote(self))
      return self->steps();
    ::poc::Call call(self, Tally_interface::steps_0);
    return call.invoke<std::uint64_t>();
  }
};

struct Tally_server : Tally_interface {
  static void dispatch(Tally &self, std::uint64_t method, ::poc::Request &rq) {
    switch (method) {
    case add_0:
      rq.invoke(self, &Tally::add);
      return;
    case total_0:
      rq.invoke(self, &Tally::total);
      return;
    case steps_0:
      rq.invoke(self, &Tally::steps);
      return;
    default:
      rq.unknown_method(method);
    }
  }
  static Tally *construct(std::uint64_t ctor, ::poc::Request &rq) {
    switch (ctor) {
    case ctor_0:
      return rq.construct<Tally>();
    case ctor_1:
      return rq.construct<Tally, std::int64_t>();
    default:
      rq.unknown_method(ctor);
    }
  }
};

inline const ::poc::ClassRegistration<Tally, Tally_server> Tally_registration{"ptest::Tally"};

} // namespace ptest
