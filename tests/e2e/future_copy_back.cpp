// Futures of started calls that copy arguments back (docs/language.md,
// "start"): the caller's references and pointed-to objects receive the
// process's changes when the future is waited for, not before.
#include <cstdio>
#include <string>
#include <vector>

struct Tally {
  int count = 0;
  std::string last;
};

class Scorer {
public:
  Scorer() = default;
  int score(const std::string &word, Tally &t) {
    ++t.count;
    t.last = word;
    total += static_cast<int>(word.size());
    return total;
  }
  int twice(int &x, std::vector<int> *v) {
    x *= 2;
    if (v)
      v->push_back(x);
    return x;
  }

private:
  int total = 0;
};

int main() {
  Scorer *s = new ("m1") Scorer();
  Tally t;
  auto f = start s->score("alpha", t);
  // The copy-back happens in get(): t keeps its old value until then.
  std::printf("before get: %d '%s'\n", t.count, t.last.c_str());
  int total = f.get();
  std::printf("after get: total %d, tally %d '%s'\n", total, t.count, t.last.c_str());

  int x = 3;
  std::vector<int> seen;
  auto g = start s->twice(x, &seen);
  g.wait();
  std::printf("after wait: x %d, seen %zu, result %d\n", x, seen.size(), g.get());

  // Several in flight, consumed together.
  int a = 1, b = 10;
  auto fa = start s->twice(a, nullptr);
  auto fb = start s->twice(b, nullptr);
  poc::when_all(fa, fb).get();
  std::printf("when_all: a %d, b %d\n", a, b);

  // then(): the continuation sees the copied-back value.
  Tally u;
  auto started = start s->score("be", u);
  auto h = started.then([&u](int tot) { return tot * 100 + u.count; });
  std::printf("then: %d\n", h.get());

  // A local object: the call is queued on it, as on a process; the
  // reference argument is the caller's, written by the time get() returns.
  Scorer local;
  Scorer *l = &local;
  Tally v;
  auto k = start l->score("local", v);
  int result = k.get();
  std::printf("local: tally %d, result %d\n", v.count, result);
  delete s;
  return 0;
}
