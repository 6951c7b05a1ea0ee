// `auto f = start p->g()` on a void method gives a poc::future<void>, also
// declared with its type, and composes like any future.
// RUN: %pocxx --translate-only %s -o - | FileCheck %s
// RUN: %pocxx %s -o %t && %t | FileCheck %s --check-prefix=OUT
#include <cstdio>

class Worker {
public:
  void work(int n) { total += n; }
  int get() const { return total; }

private:
  int total = 0;
};

int main() {
  Worker *w = new ("m") Worker();
  auto f = start w->work(5);
  // CHECK: auto f = ::poc_gen::Worker_client::work_0_future(w, 5);
  poc::future<void> g = start w->work(2);
  // CHECK: poc::future<void> g = ::poc_gen::Worker_client::work_0_future(w, 2);
  int three = f.then([] { return 3; }).get();
  g.wait();
  std::printf("%d %d\n", three, w->get());
  // OUT: 3 7
  delete w;
  return 0;
}
// CHECK: inline ::poc::future<void> poc_gen::Worker_client::work_0_future(::Worker *self,
