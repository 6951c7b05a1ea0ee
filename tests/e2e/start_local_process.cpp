// Started calls on a local object of a process class (issue 23, part 2):
// through the generated client (a pointer that holds a local object), on a
// local variable and on `*this`, they run on that object, one at a time, in
// the order they were started, without a thread per call; a value gives a
// future. And a call after `delete` names the class and the method
// (part 5).
#include <atomic>
#include <cstdio>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {
std::atomic<bool> go{false};
std::mutex seen_lock;
std::set<std::thread::id> seen; // the threads the started calls ran on
void note_thread() {
  std::lock_guard<std::mutex> g(seen_lock);
  seen.insert(std::this_thread::get_id());
}
} // namespace

class Bank {
public:
  Bank() = default;
  explicit Bank(long m) : money(m) {}
  void deposit(long a) {
    note_thread();
    log.push_back(a);
    money += a;
  }
  /// What is left after taking `a`; throws if there is not enough.
  long withdraw(long a) {
    if (money < a)
      throw std::runtime_error("not enough money");
    return money -= a;
  }
  long balance() const { return money; }
  /// Returns once main has started the calls queued behind this one.
  void hold() { go.wait(false); }
  void bonus() {
    start this->deposit(100);
    start deposit(step); // an argument that uses `this`
  }
  /// True if the log ends with from, from, from+1, from+1, ..., to, to.
  bool pairsInOrder(long from, long to) const {
    std::size_t at = log.size() - 2 * static_cast<std::size_t>(to - from + 1);
    for (long i = from; i <= to; ++i, at += 2)
      if (log[at] != i || log[at + 1] != i)
        return false;
    return true;
  }

private:
  long money = 0;
  long step = 10;
  std::vector<long> log;
};

int main() {
  Bank *remote = new ("m1") Bank(1); // makes Bank a process class
  Bank local(10);
  Bank *p = &local; // a pointer to a process class holding a local object
  start local.deposit(5);
  start p->deposit(6);
  auto f = start p->withdraw(1);
  std::printf("future: %ld\n", f.get());
  poc::sync();
  std::printf("local: %ld\n", local.balance());

  // One thread serves the object while it has calls: everything below is
  // queued behind hold(), which returns once all of it is queued.
  seen.clear();
  start p->hold();
  for (long i = 1; i <= 50; ++i) {
    start local.deposit(i);
    start p->deposit(i);
  }
  go = true;
  go.notify_all();
  poc::sync();
  std::printf("in order: %d, %ld, on %zu thread\n", local.pairsInOrder(1, 50), local.balance(),
              seen.size());

  local.bonus(); // started on *this
  poc::sync();
  std::printf("this: %ld\n", local.balance());

  // Through a pointer to a new local object: futures, in order.
  Bank *heap = new Bank(100);
  start heap->deposit(4);
  auto left = start heap->withdraw(1);
  auto now = start heap->balance();
  auto tooMuch = start heap->withdraw(1000);
  std::printf("pointer: %ld %ld\n", left.get(), now.get());
  try {
    tooMuch.get();
    std::printf("FAILED: no error\n");
  } catch (const std::runtime_error &x) {
    std::printf("future error: %s\n", x.what());
  }
  delete heap;

  remote->deposit(1);
  delete remote;
  try {
    remote->balance();
    std::printf("FAILED: a deleted process answered\n");
  } catch (const poc::remote_error &x) {
    const std::string &m = x.message();
    std::printf("after delete: names the method: %d, the class: %d, has ended: %d\n",
                m.find("Bank::balance") != std::string::npos, m.find("(Bank)") != std::string::npos,
                m.find("has ended") != std::string::npos);
  }
  auto late = start remote->balance();
  try {
    late.get();
    std::printf("FAILED: a deleted process answered a started call\n");
  } catch (const poc::remote_error &x) {
    const std::string &m = x.message();
    std::printf("future after delete: names the method: %d, has ended: %d\n",
                m.find("Bank::balance") != std::string::npos,
                m.find("has ended") != std::string::npos);
  }
  start remote->deposit(2);
  try {
    poc::sync();
    std::printf("FAILED: a deleted process served a started call\n");
  } catch (const poc::remote_error &x) {
    const std::string &m = x.message();
    std::printf("started call after delete: names the method: %d, the class: %d, has ended: %d\n",
                m.find("Bank::deposit") != std::string::npos, m.find("(Bank)") != std::string::npos,
                m.find("has ended") != std::string::npos);
  }
  return 0;
}
