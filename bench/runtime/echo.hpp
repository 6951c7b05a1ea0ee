#pragma once
// The benchmark's process class, with client and server in the shape poc++
// generates (docs/runtime.md section 3).

#include <poc/gen/runtime.hpp>

#include <mpi.h>
#include <sys/resource.h>

#include <cstdint>
#include <vector>

namespace bench {

/// The communicator the raw-MPI baselines use (a duplicate of
/// MPI_COMM_WORLD made before poc::run), so baselines can run inside the
/// job, alternating with the measured calls.
inline MPI_Comm raw_comm = MPI_COMM_NULL;

class Echo {
public:
  Echo() = default;
  int inc(int x) { return x + 1; }
  void put(std::uint64_t a, std::uint64_t b) { sum_ += a + b; }
  /// inc and put marked POC_NONBLOCKING (the server's `nonblocking` lists
  /// them): they run on the thread that receives them.
  int inc_in_place(int x) { return x + 1; }
  void put_in_place(std::uint64_t a, std::uint64_t b) { sum_ += a + b; }
  std::uint64_t total() const { return sum_; }
  std::uint64_t size_of(const std::vector<double> &v) { return v.size(); }

  /// CPU seconds (user + system) this host process has used so far.
  double cpu_seconds() const {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  }

  /// Raw-MPI baseline partners, run as methods so that the baseline and the
  /// measured calls share the same moment of a busy machine.
  /// Answers `iters` 4-byte pings from `peer`.
  void raw_pong(int peer, int iters) {
    int v = 0;
    for (int i = 0; i < iters; ++i) {
      MPI_Recv(&v, 1, MPI_INT, peer, 10, raw_comm, MPI_STATUS_IGNORE);
      ++v;
      MPI_Send(&v, 1, MPI_INT, peer, 10, raw_comm);
    }
  }
  /// Receives `messages` 16-byte messages (a window of Irecvs), then acks.
  void raw_sink(int peer, int messages) {
    constexpr int kWindow = 256;
    std::vector<std::uint64_t> buf(2 * kWindow);
    std::vector<MPI_Request> reqs(kWindow);
    for (int done = 0; done < messages; done += kWindow) {
      for (int k = 0; k < kWindow; ++k)
        MPI_Irecv(&buf[2 * k], 16, MPI_BYTE, peer, 11, raw_comm, &reqs[k]);
      MPI_Waitall(kWindow, reqs.data(), MPI_STATUSES_IGNORE);
    }
    int token = 0;
    MPI_Send(&token, 1, MPI_INT, peer, 12, raw_comm);
  }
  /// Receives one block of `bytes` into a preallocated buffer, then acks.
  void raw_big(int peer, std::uint64_t bytes) {
    big_.resize(bytes / sizeof(double), 1.0);
    MPI_Recv(big_.data(), static_cast<int>(bytes), MPI_BYTE, peer, 13, raw_comm, MPI_STATUS_IGNORE);
    int token = 0;
    MPI_Send(&token, 1, MPI_INT, peer, 14, raw_comm);
  }

private:
  std::uint64_t sum_ = 0;
  std::vector<double> big_;
};

struct Echo_interface {
  static constexpr const char *class_name = "bench::Echo";
  enum : std::uint64_t {
    ctor_0 = ::poc::method_id("bench::Echo::Echo()"),
    inc_0 = ::poc::method_id("bench::Echo::inc(int)"),
    put_0 = ::poc::method_id("bench::Echo::put(std::uint64_t,std::uint64_t)"),
    inc_in_place_0 = ::poc::method_id("bench::Echo::inc_in_place(int)"),
    put_in_place_0 = ::poc::method_id("bench::Echo::put_in_place(std::uint64_t,std::uint64_t)"),
    total_0 = ::poc::method_id("bench::Echo::total() const"),
    size_of_0 = ::poc::method_id("bench::Echo::size_of(const std::vector<double>&)"),
    cpu_seconds_0 = ::poc::method_id("bench::Echo::cpu_seconds() const"),
    raw_pong_0 = ::poc::method_id("bench::Echo::raw_pong(int,int)"),
    raw_sink_0 = ::poc::method_id("bench::Echo::raw_sink(int,int)"),
    raw_big_0 = ::poc::method_id("bench::Echo::raw_big(int,std::uint64_t)"),
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
  static void put_0_start(Echo *self, std::uint64_t a, std::uint64_t b) {
    if (!::poc::is_remote(self))
      return self->put(a, b);
    ::poc::Call call(self, Echo_interface::put_0);
    call.args(a, b);
    call.start();
  }
  static int inc_in_place_0(Echo *self, int x) {
    ::poc::Call call(self, Echo_interface::inc_in_place_0);
    call.args(x);
    return call.invoke<int>();
  }
  static void put_in_place_0_start(Echo *self, std::uint64_t a, std::uint64_t b) {
    ::poc::Call call(self, Echo_interface::put_in_place_0);
    call.args(a, b);
    call.start();
  }
  static std::uint64_t total_0(const Echo *self) {
    if (!::poc::is_remote(self))
      return self->total();
    ::poc::Call call(self, Echo_interface::total_0);
    return call.invoke<std::uint64_t>();
  }
  static double cpu_seconds_0(const Echo *self) {
    if (!::poc::is_remote(self))
      return self->cpu_seconds();
    ::poc::Call call(self, Echo_interface::cpu_seconds_0);
    return call.invoke<double>();
  }
  static std::uint64_t size_of_0(Echo *self, const std::vector<double> &v) {
    if (!::poc::is_remote(self))
      return self->size_of(v);
    ::poc::Call call(self, Echo_interface::size_of_0);
    call.args(v);
    return call.invoke<std::uint64_t>();
  }
};

/// Started calls of the raw baseline partners.
template <class... A> void start_raw(Echo *self, std::uint64_t method, A... args) {
  ::poc::Call call(self, method);
  call.args(args...);
  call.start();
}

struct Echo_server : Echo_interface {
  static void dispatch(Echo &self, std::uint64_t method, ::poc::Request &rq) {
    switch (method) {
    case inc_0:
      rq.invoke(self, &Echo::inc);
      return;
    case put_0:
      rq.invoke(self, &Echo::put);
      return;
    case inc_in_place_0:
      rq.invoke(self, &Echo::inc_in_place);
      return;
    case put_in_place_0:
      rq.invoke(self, &Echo::put_in_place);
      return;
    case total_0:
      rq.invoke(self, &Echo::total);
      return;
    case size_of_0:
      rq.invoke(self, &Echo::size_of);
      return;
    case cpu_seconds_0:
      rq.invoke(self, &Echo::cpu_seconds);
      return;
    case raw_pong_0:
      rq.invoke(self, &Echo::raw_pong);
      return;
    case raw_sink_0:
      rq.invoke(self, &Echo::raw_sink);
      return;
    case raw_big_0:
      rq.invoke(self, &Echo::raw_big);
      return;
    default:
      rq.unknown_method(method);
    }
  }
  static Echo *construct(std::uint64_t ctor, ::poc::Request &rq) {
    if (ctor != ctor_0)
      rq.unknown_method(ctor);
    return rq.construct<Echo>();
  }
  static const char *nonblocking(std::uint64_t method) noexcept {
    switch (method) {
    case inc_in_place_0:
      return "bench::Echo::inc_in_place";
    case put_in_place_0:
      return "bench::Echo::put_in_place";
    default:
      return nullptr;
    }
  }
};

inline const ::poc::ClassRegistration<Echo, Echo_server> Echo_registration{"bench::Echo"};

} // namespace bench
