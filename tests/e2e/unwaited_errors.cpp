// No error disappears (docs/language.md, "Errors"): an exception of a
// started call that nobody waits for is reported when the program ends, or
// when the process that started it ends, and the exit status is 1 although
// main returns 0.
//   unwaited_errors          main starts a call that throws on a process it
//                            then deletes, and one on a local object
//   unwaited_errors process  a process starts a call that throws and is
//                            deleted without waiting for it
#include <cstdio>
#include <stdexcept>
#include <string>

class Counter {
public:
  void fail(int code) {
    ++failures;
    throw std::runtime_error("boom " + std::to_string(code));
  }
  int failures_so_far() const { return failures; }

private:
  int failures = 0;
};

class Starter {
public:
  explicit Starter(Counter *c) : counter(c) {}
  void go() { start counter->fail(3); }

private:
  Counter *counter;
};

int main(int argc, char **argv) {
  Counter *remote = new ("m") Counter;
  if (argc > 1 && std::string(argv[1]) == "process") {
    Starter *s = new ("m") Starter(remote);
    s->go();
    delete s;
    // The started call comes from another process than main's delete
    // below, so nothing orders the two: wait until it has run.
    while (remote->failures_so_far() == 0) {
    }
  } else {
    start remote->fail(1);
    Counter local;
    start local.fail(2);
  }
  delete remote;
  std::printf("main returns 0\n");
  return 0;
}
