// `start` wherever an expression can stand (issue 23, part 3): a return
// value, a function argument, an initializer list, an operand of `?:`, a
// lambda body, a default member initializer and a fold expression. Each
// gives a poc::future of the call's result; the calls run in the process.
#include <cstdio>
#include <tuple>
#include <vector>

class Bank {
public:
  explicit Bank(long start) : money(start) {}
  void deposit(long amount) { money += amount; }
  long balance() const { return money; }
  long withdraw(long amount) {
    money -= amount;
    return money;
  }

private:
  long money;
};

// A return value.
poc::future<long> balanceLater(Bank *b) { return start b->balance(); }

// A default member initializer, with `=` and with braces.
struct Audit {
  explicit Audit(Bank *b) : bank(b) {}
  Bank *bank;
  poc::future<long> first = start bank->balance();
  poc::future<long> second{start bank->withdraw(1)};
};

// Fold expressions over a pack of process pointers.
template <class... B> long depositAll(long amount, B *...banks) {
  (start banks->deposit(amount), ...);
  poc::sync();
  return ((start banks->balance()).get() + ...);
}

int main() {
  Bank *a = new ("m1") Bank(100);
  Bank *b = new ("m2") Bank(200);

  poc::future<long> r = balanceLater(a);
  std::printf("return: %ld\n", r.get());

  // Function arguments.
  std::vector<poc::future<long>> v;
  v.push_back(start b->balance());
  v.emplace_back(start a->withdraw(10));
  std::vector<poc::future<void>> done;
  done.push_back(start a->deposit(5));
  for (auto &d : done)
    d.get();
  std::printf("arguments: %ld %ld\n", v[0].get(), v[1].get());

  // Initializer lists.
  std::vector<poc::future<long>> w{start a->balance(), start b->balance()};
  poc::future<long> braced{start b->withdraw(20)};
  std::tuple<poc::future<long>, int> t{start a->balance(), 7};
  std::printf("initializer lists: %ld %ld %ld %ld %d\n", w[0].get(), w[1].get(), braced.get(),
              std::get<0>(t).get(), std::get<1>(t));

  // Operands of a conditional.
  bool first = w.size() == 2;
  auto c = first ? start a->balance() : start b->balance();
  poc::future<long> d = !first ? start a->withdraw(1) : start b->withdraw(1);
  std::printf("conditional: %ld %ld\n", c.get(), d.get());

  // Lambda bodies: a returned future and a started statement.
  auto later = [b] { return start b->balance(); };
  auto add = [&](long n) { start a->deposit(n); };
  add(3);
  poc::sync();
  std::printf("lambda: %ld %ld\n", later().get(), a->balance());

  // Default member initializers.
  Audit audit(a);
  std::printf("member initializers: %ld %ld\n", audit.first.get(), audit.second.get());

  // A fold expression.
  std::printf("fold: %ld\n", depositAll(1, a, b));
  delete a;
  delete b;
  return 0;
}
