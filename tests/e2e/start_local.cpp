// `start` on a local object acts on that object (issue 23, part 2): on a
// local variable, on `*this` (also `this->f()` and `f()` in a method), and
// through a pointer to a local object; the calls started on one object run
// in the order they were started, one at a time; a class that cannot be
// copied (a std::mutex member) works; a value gives a future. A local
// variable that calls were started on waits for them when it goes out of
// scope: its destructor never runs while one of them does.
#include <atomic>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <vector>

class Account {
public:
  explicit Account(long m) : money(m) {}
  void deposit(long a) {
    std::lock_guard<std::mutex> g(lock);
    money += a;
    log.push_back(a);
  }
  long withdraw(long a) {
    if (a > money)
      throw std::runtime_error("not enough money");
    money -= a;
    return money;
  }
  long balance() const { return money; }
  void bonus() {
    start deposit(100);
    start this->deposit(10);
    start(*this).deposit(1);
  }
  bool inOrder(long from, long to) const {
    for (long i = from, k = 0; i <= to; ++i, ++k)
      if (log[log.size() - (to - from + 1) + k] != i)
        return false;
    return true;
  }

private:
  std::mutex lock; // not copyable
  long money;
  std::vector<long> log;
};

/// Its destructor says whether a started call was still running on it.
class Worker {
public:
  explicit Worker(const std::atomic<bool> &go) : go(go) {}
  ~Worker() {
    std::printf("worker destroyed %s\n", busy ? "while its call ran: FAILED" : "after it");
  }
  void work() {
    busy = true;
    while (!go.load())
      ; // until the scope of the variable ends (Release below)
    for (long i = 0; i < 1000000; ++i)
      sum = sum + i;
    busy = false;
  }

private:
  const std::atomic<bool> &go;
  std::atomic<bool> busy{false};
  volatile long sum = 0;
};

/// Lets Worker::work go on when it is destroyed.
struct Release {
  std::atomic<bool> &go;
  ~Release() { go = true; }
};

template <class T> void twice(T &obj, long a) {
  start obj.deposit(a);
  start obj.deposit(a);
}

int main() {
  Account local(10);
  start local.deposit(5);
  poc::sync();
  std::printf("local: %ld\n", local.balance());

  for (long i = 1; i <= 100; ++i)
    start local.deposit(i);
  poc::sync();
  std::printf("in order: %d, %ld\n", local.inOrder(1, 100), local.balance());

  local.bonus();
  poc::sync();
  std::printf("this: %ld\n", local.balance());

  Account *heap = new Account(100);
  auto f = start heap->withdraw(1);
  start heap->deposit(4);
  auto g = start(*heap).balance();
  std::printf("pointer: %ld %ld\n", f.get(), g.get());
  auto h = start heap->withdraw(1000);
  try {
    h.get();
  } catch (const std::exception &e) {
    std::printf("future error: %s\n", e.what());
  }

  twice(*heap, 7);
  poc::sync();
  std::printf("template: %ld\n", heap->balance());
  delete heap;

  std::atomic<bool> go{false};
  {
    Worker w(go);
    start w.work();
    Release release{go}; // destroyed before w: the call runs on as w's scope ends
  }
  return 0;
}
