// Remote calls in templates through pointers whose class is a template
// parameter: the same template code calls a process remotely and a local
// object directly, with C++ overload resolution at instantiation.
#include <cstdio>
#include <vector>

class Counter {
public:
  Counter() = default;
  explicit Counter(int first) : n(first) {}
  int add(int k) { return n += k; }
  int add(int k, int times) { return n += k * times; }
  int get() const { return n; }
  /// Copies the new total back into `by`.
  void bump(int &by) { by = n += by; }
  /// Named like the generated code's own names: no clash.
  int call(int k) const { return n + k; }

private:
  int n = 0;
};

/// Never a process: template calls on it stay plain calls.
class Logger {
public:
  int add(int k) { return total += k; }
  int get() const { return total; }

private:
  int total = 0;
};

/// A function template calling through `T*`.
template <class T> int addAll(T *target, const std::vector<int> &xs) {
  int last = 0;
  for (int x : xs)
    last = target->add(x);
  return last;
}

/// A class template holding a `T*`, with started calls and a future.
template <class T> class Driver {
public:
  explicit Driver(T *t) : t(t) {}
  int run(int k) {
    start t->add(k);
    poc::sync();
    auto f = start t->add(k);
    int r = f.get();
    return (*t).get() + r;
  }

private:
  T *t;
};

/// A concrete process pointer with an argument of dependent type.
template <class N> int addAs(Counter *c, N k) { return c->add(k); }

template <class T> int callOne(T *t) { return t->call(1); }

template <class T> int bumpTwice(T *t, int by) {
  t->bump(by);
  t->bump(by);
  return by;
}

int main() {
  Counter *remote = new ("m1") Counter(10);
  Counter here(100);
  Logger log;
  std::vector<int> xs{1, 2, 3};
  std::printf("addAll remote: %d\n", addAll(remote, xs));
  std::printf("addAll local counter: %d\n", addAll(&here, xs));
  std::printf("addAll logger: %d\n", addAll(&log, xs));
  Driver<Counter> onRemote(remote);
  std::printf("driver remote: %d\n", onRemote.run(5));
  Driver<Logger> onLogger(&log);
  std::printf("driver logger: %d\n", onLogger.run(5));
  std::printf("addAs remote: %d\n", addAs(remote, 4L));
  int by = bumpTwice(remote, 2);
  std::printf("bumpTwice remote: %d, now %d\n", by, remote->get());
  std::printf("call: %d\n", callOne(remote));
  auto twice = [](auto *p) { return p->get() * 2; };
  std::printf("generic lambda: %d %d\n", twice(remote), twice(&log));
  delete remote;
  return 0;
}
