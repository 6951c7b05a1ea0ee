#pragma once
// A process class for the runtime's tests, with its interface, client and
// server written by hand in the shape poc++ generates (docs/runtime.md
// sections 3.2 and 3.3; tests/compiler/basic.cpp checks the real output):
// the same ids, client functions (create_N, start_create_N, f_N, f_N_start,
// f_N_future, each calling the object directly when it is local), server
// dispatch and registration. Only the layout differs: poc++ declares the
// client's functions in namespace poc_gen and defines them after the user's
// code; here they are defined in the class, beside the user's.

#include <poc/gen/runtime.hpp>

#include <chrono>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace demo {

/// Holds a value and a log of appended numbers; can call other Counters.
class Counter : public poc::ProcessGroupMember {
public:
  explicit Counter(int start) : value_(start) {}
  Counter(std::string name, int start) : name_(std::move(name)), value_(start) {}

  int add(int d) { return value_ += d; }
  int get() const { return value_; }
  std::string name() const { return name_; }
  void append(int x) { log_.push_back(x); }
  /// append, marked POC_NONBLOCKING (the server's `nonblocking` lists it):
  /// its calls run where they arrive when the process is idle.
  void note(int x) { log_.push_back(x); }
  std::vector<int> log() const { return log_; }
  void fail(std::string message) { throw std::invalid_argument(message); }
  /// Copy-back through a reference and a pointer.
  void twice(int &x, std::string *s) {
    x *= 2;
    if (s)
      *s += *s;
  }
  /// Calls another process (a reference passed in).
  int add_to(Counter *other, int d);
  /// Sum over a container of references.
  int sum(std::vector<Counter *> others);
  /// Returns a reference to this process.
  Counter *self() { return this; }
  /// Compares two references on the server side.
  bool same(Counter *a, Counter *b) { return a == b; }
  /// Checksum of a big argument; marked POC_NONBLOCKING, so a call that
  /// finds the process idle receives its out-of-band block where it arrives.
  double checksum(const std::vector<double> &v) { return std::accumulate(v.begin(), v.end(), 0.0); }
  /// The checksum of `v`, taken after a call of checksum on itself through
  /// `me` (a reference to this process) with a vector of ones: the nested
  /// call must not decode into the storage `v` lives in.
  double checksum_after_self_call(const std::vector<double> &v, Counter *me);
  /// A big result.
  std::vector<double> ramp(std::uint64_t n) {
    std::vector<double> v(n);
    for (std::uint64_t i = 0; i < n; ++i)
      v[i] = static_cast<double>(i);
    return v;
  }
  void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }
  /// Passes `rounds` barriers, appending the round to the shared array
  /// `board` (a remote array of group size * rounds ints) after each.
  void rounds(int rounds, int *board);
  /// Writes into a remote array.
  void poke(double *array, std::uint64_t i, double v);
  void noop() {}

private:
  std::string name_;
  int value_ = 0;
  std::vector<int> log_;
};

// ------------------------------------------------------------ generated shape

struct Counter_interface {
  static constexpr const char *class_name = "demo::Counter";
  enum : std::uint64_t {
    ctor_0 = ::poc::method_id("demo::Counter::Counter(int)"),
    ctor_1 = ::poc::method_id("demo::Counter::Counter(std::string,int)"),
    add_0 = ::poc::method_id("demo::Counter::add(int)"),
    get_0 = ::poc::method_id("demo::Counter::get() const"),
    name_0 = ::poc::method_id("demo::Counter::name() const"),
    append_0 = ::poc::method_id("demo::Counter::append(int)"),
    note_0 = ::poc::method_id("demo::Counter::note(int)"),
    log_0 = ::poc::method_id("demo::Counter::log() const"),
    fail_0 = ::poc::method_id("demo::Counter::fail(std::string)"),
    twice_0 = ::poc::method_id("demo::Counter::twice(int&,std::string*)"),
    add_to_0 = ::poc::method_id("demo::Counter::add_to(demo::Counter*,int)"),
    sum_0 = ::poc::method_id("demo::Counter::sum(std::vector<demo::Counter*>)"),
    self_0 = ::poc::method_id("demo::Counter::self()"),
    same_0 = ::poc::method_id("demo::Counter::same(demo::Counter*,demo::Counter*)"),
    checksum_0 = ::poc::method_id("demo::Counter::checksum(const std::vector<double>&)"),
    checksum_after_self_call_0 = ::poc::method_id(
        "demo::Counter::checksum_after_self_call(const std::vector<double>&,demo::Counter*)"),
    ramp_0 = ::poc::method_id("demo::Counter::ramp(std::uint64_t)"),
    sleep_ms_0 = ::poc::method_id("demo::Counter::sleep_ms(int)"),
    rounds_0 = ::poc::method_id("demo::Counter::rounds(int,int*)"),
    poke_0 = ::poc::method_id("demo::Counter::poke(double*,std::uint64_t,double)"),
    noop_0 = ::poc::method_id("demo::Counter::noop()"),
    SetProcessGroup_0 = ::poc::method_id(
        "poc::ProcessGroupMember::SetProcessGroup<demo::Counter>(int,int,demo::Counter*const*)"),
    ID_0 = ::poc::method_id("poc::ProcessGroupMember::ID() const"),
  };
};

struct Counter_client : Counter_interface {
  static Counter *create_0(const ::poc::machine &where, int start) {
    return ::poc::create<Counter>(where, Counter_interface::ctor_0, start);
  }
  static Counter *start_create_0(const ::poc::machine &where, int start) {
    return ::poc::start_create<Counter>(where, Counter_interface::ctor_0, start);
  }
  static int add_0(Counter *self, int d) {
    if (!::poc::is_remote(self))
      return self->add(d);
    ::poc::Call call(self, Counter_interface::add_0);
    call.args(d);
    return call.invoke<int>();
  }
  static void add_0_start(Counter *self, int d) {
    if (!::poc::is_remote(self)) {
      self->add(d);
      return;
    }
    ::poc::Call call(self, Counter_interface::add_0);
    call.args(d);
    call.start();
  }
  static ::poc::future<int> add_0_future(Counter *self, int d) {
    if (!::poc::is_remote(self))
      return ::poc::make_ready_future(self->add(d));
    ::poc::Call call(self, Counter_interface::add_0);
    call.args(d);
    return call.start_future<int>();
  }
  static int get_0(const Counter *self) {
    if (!::poc::is_remote(self))
      return self->get();
    ::poc::Call call(self, Counter_interface::get_0);
    return call.invoke<int>();
  }
  static std::string name_0(const Counter *self) {
    if (!::poc::is_remote(self))
      return self->name();
    ::poc::Call call(self, Counter_interface::name_0);
    return call.invoke<std::string>();
  }
  static void append_0_start(Counter *self, int x) {
    if (!::poc::is_remote(self)) {
      self->append(x);
      return;
    }
    ::poc::Call call(self, Counter_interface::append_0);
    call.args(x);
    call.start();
  }
  static void note_0_start(Counter *self, int x) {
    ::poc::Call call(self, Counter_interface::note_0);
    call.args(x);
    call.start();
  }
  static std::vector<int> log_0(const Counter *self) {
    if (!::poc::is_remote(self))
      return self->log();
    ::poc::Call call(self, Counter_interface::log_0);
    return call.invoke<std::vector<int>>();
  }
  static void fail_0(Counter *self, std::string message) {
    if (!::poc::is_remote(self))
      return self->fail(message);
    ::poc::Call call(self, Counter_interface::fail_0);
    call.args(message);
    call.invoke();
  }
  static void fail_0_start(Counter *self, std::string message) {
    if (!::poc::is_remote(self)) {
      self->fail(message);
      return;
    }
    ::poc::Call call(self, Counter_interface::fail_0);
    call.args(message);
    call.start();
  }
  static ::poc::future<void> fail_0_future(Counter *self, std::string message) {
    if (!::poc::is_remote(self)) {
      self->fail(message);
      return ::poc::make_ready_future();
    }
    ::poc::Call call(self, Counter_interface::fail_0);
    call.args(message);
    return call.start_future<void>();
  }
  static void twice_0(Counter *self, int &x, std::string *s) {
    if (!::poc::is_remote(self))
      return self->twice(x, s);
    ::poc::Call call(self, Counter_interface::twice_0);
    call.args(x, s);
    auto reply = call.invoke_reply();
    reply.copy_back(x, s);
    return reply.result<void>();
  }
  static ::poc::future<void> twice_0_future(Counter *self, int &x, std::string *s) {
    if (!::poc::is_remote(self)) {
      self->twice(x, s);
      return ::poc::make_ready_future();
    }
    ::poc::Call call(self, Counter_interface::twice_0);
    call.args(x, s);
    return call.start_future<void>(x, s);
  }
  static int add_to_0(Counter *self, Counter *other, int d) {
    if (!::poc::is_remote(self))
      return self->add_to(other, d);
    ::poc::Call call(self, Counter_interface::add_to_0);
    call.args(other, d);
    auto reply = call.invoke_reply();
    reply.copy_back(other);
    return reply.result<int>();
  }
  static int sum_0(Counter *self, std::vector<Counter *> others) {
    if (!::poc::is_remote(self))
      return self->sum(others);
    ::poc::Call call(self, Counter_interface::sum_0);
    call.args(others);
    return call.invoke<int>();
  }
  static Counter *self_0(Counter *self) {
    if (!::poc::is_remote(self))
      return self->self();
    ::poc::Call call(self, Counter_interface::self_0);
    return call.invoke<Counter *>();
  }
  static bool same_0(Counter *self, Counter *a, Counter *b) {
    if (!::poc::is_remote(self))
      return self->same(a, b);
    ::poc::Call call(self, Counter_interface::same_0);
    call.args(a, b);
    auto reply = call.invoke_reply();
    reply.copy_back(a, b);
    return reply.result<bool>();
  }
  static double checksum_0(Counter *self, const std::vector<double> &v) {
    if (!::poc::is_remote(self))
      return self->checksum(v);
    ::poc::Call call(self, Counter_interface::checksum_0);
    call.args(v);
    return call.invoke<double>();
  }
  static double checksum_after_self_call_0(Counter *self, const std::vector<double> &v,
                                           Counter *me) {
    if (!::poc::is_remote(self))
      return self->checksum_after_self_call(v, me);
    ::poc::Call call(self, Counter_interface::checksum_after_self_call_0);
    call.args(v, me);
    auto reply = call.invoke_reply();
    reply.copy_back(me);
    return reply.result<double>();
  }
  static std::vector<double> ramp_0(Counter *self, std::uint64_t n) {
    if (!::poc::is_remote(self))
      return self->ramp(n);
    ::poc::Call call(self, Counter_interface::ramp_0);
    call.args(n);
    return call.invoke<std::vector<double>>();
  }
  static void sleep_ms_0(Counter *self, int ms) {
    if (!::poc::is_remote(self))
      return self->sleep_ms(ms);
    ::poc::Call call(self, Counter_interface::sleep_ms_0);
    call.args(ms);
    call.invoke();
  }
  static void sleep_ms_0_start(Counter *self, int ms) {
    if (!::poc::is_remote(self)) {
      self->sleep_ms(ms);
      return;
    }
    ::poc::Call call(self, Counter_interface::sleep_ms_0);
    call.args(ms);
    call.start();
  }
  static void rounds_0_start(Counter *self, int rounds, int *board) {
    if (!::poc::is_remote(self)) {
      self->rounds(rounds, board);
      return;
    }
    ::poc::Call call(self, Counter_interface::rounds_0);
    call.args(rounds, board);
    call.start();
  }
  static void poke_0(Counter *self, double *array, std::uint64_t i, double v) {
    if (!::poc::is_remote(self))
      return self->poke(array, i, v);
    ::poc::Call call(self, Counter_interface::poke_0);
    call.args(array, i, v);
    auto reply = call.invoke_reply();
    reply.copy_back(array);
    return reply.result<void>();
  }
  static void noop_0(Counter *self) {
    if (!::poc::is_remote(self))
      return self->noop();
    ::poc::Call call(self, Counter_interface::noop_0);
    call.invoke();
  }
  static void noop_0_start(Counter *self) {
    if (!::poc::is_remote(self)) {
      self->noop();
      return;
    }
    ::poc::Call call(self, Counter_interface::noop_0);
    call.start();
  }
  static void SetProcessGroup_0(Counter *self, int id, int n, Counter *const *group) {
    if (!::poc::is_remote(self))
      return self->SetProcessGroup(id, n, group);
    ::poc::Call call(self, Counter_interface::SetProcessGroup_0);
    call.args(id, n, ::poc::counted(group, static_cast<std::size_t>(n)));
    call.invoke();
  }
  static void SetProcessGroup_0_start(Counter *self, int id, int n, Counter *const *group) {
    if (!::poc::is_remote(self)) {
      self->SetProcessGroup(id, n, group);
      return;
    }
    ::poc::Call call(self, Counter_interface::SetProcessGroup_0);
    call.args(id, n, ::poc::counted(group, static_cast<std::size_t>(n)));
    call.start();
  }
  static int ID_0(const Counter *self) {
    if (!::poc::is_remote(self))
      return self->ID();
    ::poc::Call call(self, Counter_interface::ID_0);
    return call.invoke<int>();
  }
};

struct Counter_server : Counter_interface {
  static void dispatch(Counter &self, std::uint64_t method, ::poc::Request &rq) {
    switch (method) {
    case add_0:
      rq.invoke(self, static_cast<int (Counter::*)(int)>(&Counter::add));
      return;
    case get_0:
      rq.invoke(self, static_cast<int (Counter::*)() const>(&Counter::get));
      return;
    case name_0:
      rq.invoke(self, &Counter::name);
      return;
    case note_0:
      rq.invoke(self, &Counter::note);
      return;
    case append_0:
      rq.invoke(self, &Counter::append);
      return;
    case log_0:
      rq.invoke(self, &Counter::log);
      return;
    case fail_0:
      rq.invoke(self, &Counter::fail);
      return;
    case twice_0:
      rq.invoke(self, &Counter::twice);
      return;
    case add_to_0:
      rq.invoke(self, &Counter::add_to);
      return;
    case sum_0:
      rq.invoke(self, &Counter::sum);
      return;
    case self_0:
      rq.invoke(self, &Counter::self);
      return;
    case same_0:
      rq.invoke(self, &Counter::same);
      return;
    case checksum_0:
      rq.invoke(self, &Counter::checksum);
      return;
    case checksum_after_self_call_0:
      rq.invoke(self, &Counter::checksum_after_self_call);
      return;
    case ramp_0:
      rq.invoke(self, &Counter::ramp);
      return;
    case sleep_ms_0:
      rq.invoke(self, &Counter::sleep_ms);
      return;
    case rounds_0:
      rq.invoke(self, &Counter::rounds);
      return;
    case poke_0:
      rq.invoke(self, &Counter::poke);
      return;
    case noop_0:
      rq.invoke(self, &Counter::noop);
      return;
    case SetProcessGroup_0:
      rq.invoke(self, &::poc::ProcessGroupMember::SetProcessGroup<Counter>);
      return;
    case ID_0:
      rq.invoke(self, &::poc::ProcessGroupMember::ID);
      return;
    default:
      if (::poc::detail::invoke_registered_method(typeid(Counter), method,
                                                  static_cast<void *>(std::addressof(self)), rq))
        return;
      rq.unknown_method(method, class_name);
    }
  }
  static Counter *construct(std::uint64_t ctor, ::poc::Request &rq) {
    switch (ctor) {
    case ctor_0:
      return rq.construct<Counter, int>();
    case ctor_1:
      return rq.construct<Counter, std::string, int>();
    default:
      rq.unknown_method(ctor, class_name);
    }
  }
  static const char *nonblocking(std::uint64_t method) noexcept {
    switch (method) {
    case note_0:
      return "demo::Counter::note";
    case checksum_0:
      return "demo::Counter::checksum";
    default:
      return nullptr;
    }
  }
};

inline const ::poc::ClassRegistration<Counter, Counter_server> Counter_registration{
    "demo::Counter"};

// Bodies that make calls, as poc++ rewrites them.
inline int Counter::add_to(Counter *other, int d) { return Counter_client::add_0(other, d); }

inline int Counter::sum(std::vector<Counter *> others) {
  int s = 0;
  for (Counter *c : others)
    s += Counter_client::get_0(c);
  return s;
}

inline void Counter::rounds(int rounds, int *board) {
  for (int r = 0; r < rounds; ++r) {
    // Everyone writes its slot of round r, then waits; after the barrier
    // every slot of round r must be set.
    ::poc::element(board, r * NumberOfProcesses() + ID()) = r + 1;
    barrier();
    for (int i = 0; i < NumberOfProcesses(); ++i)
      if (static_cast<int>(::poc::element(board, r * NumberOfProcesses() + i)) != r + 1)
        throw std::logic_error("barrier released before every member arrived");
    barrier();
  }
}

inline double Counter::checksum_after_self_call(const std::vector<double> &v, Counter *me) {
  const double ones = Counter_client::checksum_0(me, std::vector<double>(v.size(), 1.0));
  if (ones != static_cast<double>(v.size()))
    throw std::logic_error("the nested call saw the wrong argument");
  return checksum(v);
}

inline void Counter::poke(double *array, std::uint64_t i, double v) {
  ::poc::element(array, static_cast<std::ptrdiff_t>(i)) = v;
}

} // namespace demo
