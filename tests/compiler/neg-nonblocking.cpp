// A method marked POC_NONBLOCKING may run on the thread that received its
// call, so what would wait in its body is an error: a synchronous remote
// call, a creation or deletion, a future's get() or wait(), poc::sync() and
// poc::wait_until(). Started calls, local work and lambdas (which may run
// elsewhere) are fine; nothing else is reported.
// RUN: not %pocxx --translate-only %s -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not=error:
#include <poc/annotations.hpp>

class Counter {
public:
  int add(int k) { return n += k; }

private:
  int n = 0;
};

class Relay {
public:
  POC_NONBLOCKING void pass(Counter *c, int k);
  POC_NONBLOCKING int inline_body(Counter *c) {
    start c->add(1);
    int local = 2 * c->add(2);
    // CHECK: neg-nonblocking.cpp:[[#@LINE-1]]:21: error: a synchronous call of 'Counter::add', which may be remote, waits, but 'Relay::inline_body' is marked POC_NONBLOCKING: its calls may run on the thread that received them, which must not wait; start the call instead, or remove the mark
    auto later = [c] { return c->add(3); };
    return local + pending;
  }
  POC_NONBLOCKING void lifecycle() {
    Counter *made = new ("m1") Counter;
    // CHECK: neg-nonblocking.cpp:[[#@LINE-1]]:21: error: creating a process without 'start' waits, but 'Relay::lifecycle'
    Counter *started = start new ("m1") Counter;
    delete started;
    // CHECK: neg-nonblocking.cpp:[[#@LINE-1]]:5: error: deleting an object that may be a process waits, but 'Relay::lifecycle'
    (void)made;
  }
  POC_NONBLOCKING void waits(Counter *c) {
    poc::future<int> f = start c->add(4);
    pending = f.get();
    // CHECK: neg-nonblocking.cpp:[[#@LINE-1]]:17: error: a future's 'get()' waits, but 'Relay::waits'
    f.wait();
    // CHECK: neg-nonblocking.cpp:[[#@LINE-1]]:7: error: a future's 'wait()' waits, but 'Relay::waits'
    poc::sync();
    // CHECK: neg-nonblocking.cpp:[[#@LINE-1]]:5: error: 'poc::sync()' waits, but 'Relay::waits'
    poc::wait_until([] { return true; });
    // CHECK: neg-nonblocking.cpp:[[#@LINE-1]]:5: error: 'poc::wait_until()' waits, but 'Relay::waits'
  }
  /// Not marked: it may wait.
  int plain(Counter *c) { return c->add(5); }

private:
  int pending = 0;
};

// The mark on the declaration covers a body defined outside the class.
void Relay::pass(Counter *c, int k) {
  c->add(k);
  // CHECK: neg-nonblocking.cpp:[[#@LINE-1]]:3: error: a synchronous call of 'Counter::add', which may be remote, waits, but 'Relay::pass'
}

int main() {
  Relay *r = new ("m1") Relay;
  Counter *c = new ("m2") Counter;
  start r->pass(c, 1);
  int v = r->plain(c);
  delete c;
  delete r;
  return v;
}
