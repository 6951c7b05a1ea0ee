#pragma once
// The process class of the dynamic-process tests, with its interface,
// client and server written by hand in the shape poc++ generates
// (docs/runtime.md sections 3.2 and 3.3).

#include <poc/gen/runtime.hpp>

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace spawn_test {

/// A process that reports where it runs and calls other processes, so a
/// test can drive connections between hosts other than its own.
class Worker {
public:
  explicit Worker(int start) : value_(start) {}

  int add(int d) { return value_ += d; }
  int get() const { return value_; }
  /// The number of the host this process runs on.
  int host() const { return poc::host_rank(); }
  void fail(std::string message) { throw std::invalid_argument(message); }
  double checksum(const std::vector<double> &v) { return std::accumulate(v.begin(), v.end(), 0.0); }
  std::vector<double> ramp(std::uint64_t n) {
    std::vector<double> v(n);
    std::iota(v.begin(), v.end(), 0.0);
    return v;
  }
  /// Sets this host's connection cache.
  void set_cache(int n) { poc::set_connection_cache(static_cast<std::size_t>(n)); }
  /// Connections this host opened and closed so far.
  std::vector<std::uint64_t> stats() const {
    poc::ConnectionStats s = poc::connection_stats();
    return {s.opened, s.closed};
  }
  /// Drives `rounds` rounds over `peers`: a synchronous add, a started add
  /// and a started add with a future per peer, a big argument and a big
  /// result, and an error; returns a digest of everything that came back.
  std::int64_t drive(std::vector<Worker *> peers, int rounds);
  /// Creates a process from this (spawned) host, calls it, deletes it and
  /// returns the host it ran on.
  int create_nearby();

private:
  int value_ = 0;
};

struct Worker_interface {
  static constexpr const char *class_name = "spawn_test::Worker";
  enum : std::uint64_t {
    ctor_0 = ::poc::method_id("spawn_test::Worker::Worker(int)"),
    add_0 = ::poc::method_id("spawn_test::Worker::add(int)"),
    get_0 = ::poc::method_id("spawn_test::Worker::get() const"),
    host_0 = ::poc::method_id("spawn_test::Worker::host() const"),
    fail_0 = ::poc::method_id("spawn_test::Worker::fail(std::string)"),
    checksum_0 = ::poc::method_id("spawn_test::Worker::checksum(const std::vector<double>&)"),
    ramp_0 = ::poc::method_id("spawn_test::Worker::ramp(std::uint64_t)"),
    set_cache_0 = ::poc::method_id("spawn_test::Worker::set_cache(int)"),
    stats_0 = ::poc::method_id("spawn_test::Worker::stats() const"),
    drive_0 = ::poc::method_id("spawn_test::Worker::drive(std::vector<spawn_test::Worker*>,int)"),
    create_nearby_0 = ::poc::method_id("spawn_test::Worker::create_nearby()"),
  };
};

struct Worker_client : Worker_interface {
  template <class R, class... A> static R sync(const Worker *self, std::uint64_t id, A... a) {
    ::poc::Call call(self, id);
    call.args(a...);
    return call.invoke<R>();
  }
  static int add_0(Worker *self, int d) { return sync<int>(self, Worker_interface::add_0, d); }
  static void add_0_start(Worker *self, int d) {
    ::poc::Call call(self, Worker_interface::add_0);
    call.args(d);
    call.start();
  }
  static ::poc::future<int> add_0_future(Worker *self, int d) {
    ::poc::Call call(self, Worker_interface::add_0);
    call.args(d);
    return call.start_future<int>();
  }
  static int get_0(const Worker *self) { return sync<int>(self, Worker_interface::get_0); }
  static int host_0(const Worker *self) { return sync<int>(self, Worker_interface::host_0); }
  static void fail_0(Worker *self, std::string m) { sync<void>(self, Worker_interface::fail_0, m); }
  static double checksum_0(Worker *self, const std::vector<double> &v) {
    ::poc::Call call(self, Worker_interface::checksum_0);
    call.args(v);
    return call.invoke<double>();
  }
  static std::vector<double> ramp_0(Worker *self, std::uint64_t n) {
    return sync<std::vector<double>>(self, Worker_interface::ramp_0, n);
  }
  static void set_cache_0(Worker *self, int n) {
    sync<void>(self, Worker_interface::set_cache_0, n);
  }
  static std::vector<std::uint64_t> stats_0(const Worker *self) {
    return sync<std::vector<std::uint64_t>>(self, Worker_interface::stats_0);
  }
  static std::int64_t drive_0(Worker *self, std::vector<Worker *> peers, int rounds) {
    if (!::poc::is_remote(self))
      return self->drive(peers, rounds);
    ::poc::Call call(self, Worker_interface::drive_0);
    call.args(peers, rounds);
    return call.invoke<std::int64_t>();
  }
  static int create_nearby_0(Worker *self) {
    return sync<int>(self, Worker_interface::create_nearby_0);
  }
};

struct Worker_server : Worker_interface {
  static void dispatch(Worker &self, std::uint64_t method, ::poc::Request &rq) {
    switch (method) {
    case add_0:
      rq.invoke(self, &Worker::add);
      return;
    case get_0:
      rq.invoke(self, &Worker::get);
      return;
    case host_0:
      rq.invoke(self, &Worker::host);
      return;
    case fail_0:
      rq.invoke(self, &Worker::fail);
      return;
    case checksum_0:
      rq.invoke(self, &Worker::checksum);
      return;
    case ramp_0:
      rq.invoke(self, &Worker::ramp);
      return;
    case set_cache_0:
      rq.invoke(self, &Worker::set_cache);
      return;
    case stats_0:
      rq.invoke(self, &Worker::stats);
      return;
    case drive_0:
      rq.invoke(self, &Worker::drive);
      return;
    case create_nearby_0:
      rq.invoke(self, &Worker::create_nearby);
      return;
    default:
      rq.unknown_method(method);
    }
  }
  static Worker *construct(std::uint64_t ctor, ::poc::Request &rq) {
    if (ctor != ctor_0)
      rq.unknown_method(ctor);
    return rq.construct<Worker, int>();
  }
};

inline const ::poc::ClassRegistration<Worker, Worker_server> Worker_registration{
    "spawn_test::Worker"};

// Bodies that make calls, as poc++ rewrites them.
inline std::int64_t Worker::drive(std::vector<Worker *> peers, int rounds) {
  std::int64_t digest = 0;
  std::vector<double> big(20000, 0.5); // 160 KB: sent out of band
  for (int r = 0; r < rounds; ++r) {
    for (Worker *p : peers) {
      digest += Worker_client::add_0(p, 1);
      Worker_client::add_0_start(p, 2);
      ::poc::future<int> f = Worker_client::add_0_future(p, 3);
      ::poc::sync();
      digest += f.get();
      digest += static_cast<std::int64_t>(Worker_client::checksum_0(p, big));
      std::vector<double> v = Worker_client::ramp_0(p, 10000);
      digest += static_cast<std::int64_t>(v.back()) + static_cast<std::int64_t>(v.size());
      try {
        Worker_client::fail_0(p, "deliberate");
      } catch (const poc::remote_error &e) {
        digest += std::string(e.what()).find("deliberate") != std::string::npos ? 1000 : -1000;
      }
    }
  }
  return digest;
}

inline int Worker::create_nearby() {
  Worker *w = ::poc::create<Worker>("anywhere", Worker_interface::ctor_0, 5);
  int where = Worker_client::host_0(w);
  if (Worker_client::add_0(w, 1) != 6)
    throw std::logic_error("a process created by a spawned host answered wrongly");
  ::poc::destroy(w);
  return where;
}

} // namespace spawn_test
