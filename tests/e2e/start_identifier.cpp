// `start` is a keyword only in front of a call or creation: everywhere else
// it is an ordinary identifier and the program compiles unchanged.
#include <cstdio>
#include <vector>

struct Timer {
  int started = 0;
  void start() { ++started; }
  int start(int times) {
    started += times;
    return started;
  }
};

static int start(int x) { return x + 1; }

struct Range {
  int start, end;
  Range(int start, int end) : start(start), end(end) {}
  int length() const { return end - start; }
};

class Worker {
public:
  Worker() = default;
  int run(int start) { return start * 2; }
};

int main() {
  int start = 3;
  Timer timer;
  timer.start();
  timer.start(2);
  start = start + 1;
  start += ::start(start);
  Range r(start, 20);
  std::vector<int> v{start, r.length()};
  int x = v[0] * start;
  Worker *w = new ("worker") Worker();
  ::start(start);
  int y = w->run(start);
  std::printf("start=%d started=%d length=%d x=%d y=%d\n", start, timer.started, r.length(), x, y);
  delete w;
  return 0;
}
