// `start` is a keyword only in front of a call or a creation; as a
// variable, function, member or parameter name the code is left alone.
// RUN: %pocxx --translate-only %s -o - | %nochecks | FileCheck %s

struct Timer {
  int started = 0;
  void start() { ++started; }
  // CHECK: void start() { ++started; }
};
int start(int x) { return x + 1; }
// CHECK: int start(int x) { return x + 1; }
struct Range {
  int start, end;
  Range(int start, int end) : start(start), end(end) {}
  // CHECK: Range(int start, int end) : start(start), end(end) {}
};
class Job {
public:
  void run(int n) { (void)n; }
};
void local(int) {}

int main() {
  int start = 3;
  // CHECK: int start = 3;
  Timer timer;
  timer.start();
  // CHECK-NEXT: Timer timer;
  // CHECK-NEXT: timer.start();
  start = start * 2;
  // CHECK-NEXT: start = start * 2;
  start += ::start(start);
  // CHECK-NEXT: start += ::start(start);
  Range r(start, 20);
  Job *job = new ("m") Job;
  start job->run(start);
  // CHECK: ::poc_gen::Job_client::run_0_start(job, start);
  start local(start);
  // CHECK-NEXT: ::poc::start_local([=]() mutable { local(start); });
  poc::sync();
  delete job;
  return r.end - start;
}
