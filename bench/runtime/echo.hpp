#pragma once
// The benchmark's process class, with client and server in the shape poc++
// generates (docs/runtime.md section 3).

#include <poc/poc.hpp>

#include <cstdint>
#include <vector>

namespace bench {

class Echo {
public:
  Echo() = default;
  int inc(int x) { return x + 1; }
  void put(std::uint64_t a, std::uint64_t b) { sum_ += a + b; }
  std::uint64_t total() const { return sum_; }
  std::uint64_t size_of(const std::vector<double> &v) { return v.size(); }

private:
  std::uint64_t sum_ = 0;
};

struct Echo_interface {
  static constexpr const char *class_name = "bench::Echo";
  enum : std::uint64_t {
    ctor_0 = ::poc::method_id("bench::Echo::Echo()"),
    inc_0 = ::poc::method_id("bench::Echo::inc(int)"),
    put_0 = ::poc::method_id("bench::Echo::put(std::uint64_t,std::uint64_t)"),
    total_0 = ::poc::method_id("bench::Echo::total() const"),
    size_of_0 = ::poc::method_id("bench::Echo::size_of(const std::vector<double>&)"),
  };
};

struct Echo_client : Echo_interface {
  static int inc_0(Echo *self, int x) {
    if (!::poc::is_remote(self))
      return self->inc(x);
    ::poc::Call call(self, Echo_interface::inc_0);
    call.args(x);
    return call.invoke<int>();
  }
  static void start_put_0(Echo *self, std::uint64_t a, std::uint64_t b) {
    if (!::poc::is_remote(self))
      return self->put(a, b);
    ::poc::Call call(self, Echo_interface::put_0);
    call.args(a, b);
    call.start();
  }
  static std::uint64_t total_0(const Echo *self) {
    if (!::poc::is_remote(self))
      return self->total();
    ::poc::Call call(self, Echo_interface::total_0);
    return call.invoke<std::uint64_t>();
  }
  static std::uint64_t size_of_0(Echo *self, const std::vector<double> &v) {
    if (!::poc::is_remote(self))
      return self->size_of(v);
    ::poc::Call call(self, Echo_interface::size_of_0);
    call.args(v);
    return call.invoke<std::uint64_t>();
  }
};

struct Echo_server : Echo_interface {
  static void dispatch(Echo &self, std::uint64_t method, ::poc::Request &rq) {
    switch (method) {
    case inc_0: rq.invoke(self, &Echo::inc); return;
    case put_0: rq.invoke(self, &Echo::put); return;
    case total_0: rq.invoke(self, &Echo::total); return;
    case size_of_0: rq.invoke(self, &Echo::size_of); return;
    default: rq.unknown_method(method);
    }
  }
  static Echo *construct(std::uint64_t ctor, ::poc::Request &rq) {
    if (ctor != ctor_0)
      rq.unknown_method(ctor);
    return rq.construct<Echo>();
  }
};

inline const ::poc::ClassRegistration<Echo, Echo_server> Echo_registration{"bench::Echo"};

} // namespace bench
