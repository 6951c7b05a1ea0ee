// `new (m) T(args)` where T is a template parameter: a process of each class
// the program names as T, with the constructor chosen by overload
// resolution, also started and through a class template.
#include <cstdio>
#include <string>
#include <vector>

class Counter {
public:
  Counter() = default;
  explicit Counter(int first) : n(first) {}
  Counter(int first, int times) : n(first * times) {}
  int get() const { return n; }

private:
  int n = 0;
};

class Greeter {
public:
  explicit Greeter(std::string name) : name(std::move(name)) {}
  std::string greet() const { return "hello, " + name; }

private:
  std::string name;
};

/// A function template that creates a process of its parameter's class.
template <class T, class... A> T *make(const char *where, A... a) { return new (where) T(a...); }

/// A class template holding processes of its parameter's class.
template <class T> class Pool {
public:
  explicit Pool(int n) {
    for (int i = 0; i < n; ++i) {
      T *p;
      start p = new ("pool") T(i + 1);
      members.push_back(p);
    }
  }
  ~Pool() {
    for (T *p : members)
      delete p;
  }
  int sum() const {
    int s = 0;
    for (T *p : members)
      s += p->get();
    return s;
  }

private:
  std::vector<T *> members;
};

template <class T> T *makeDefault() { return new ("m") T; }

int main() {
  Counter *a = make<Counter>("m", 5);
  Counter *b = make<Counter>("m", 3, 4);
  Counter *c = makeDefault<Counter>();
  Greeter *g = make<Greeter>("m", std::string("process"));
  std::printf("counters %d %d %d, %s\n", a->get(), b->get(), c->get(), g->greet().c_str());
  {
    Pool<Counter> pool(4);
    std::printf("pool sum %d\n", pool.sum());
  }
  delete a;
  delete b;
  delete c;
  delete g;
  return 0;
}
