// Creates banks as processes (and one local bank) and uses them through
// functions compiled in other files and in a static library.
#include "audit.hpp"
#include "bank.hpp"
#include "pay.hpp"
#include "transfer.hpp"

#include <cstdio>
#include <vector>

int main() {
  std::vector<Bank *> banks{new ("machine1") Bank("ada", 100), new ("machine2") Bank("bob", 50),
                            new ("machine3") Bank("cy", 10)};
  Bank local("dee", 5);
  banks.push_back(&local);
  for (Bank *b : banks)
    pay(b, 1);
  bool moved = transfer(banks[0], banks[2], 60);
  bool refused = transfer(banks[1], banks[3], 1000);
  std::printf("moved %d refused %d\n", moved, !refused);
  for (Bank *b : banks)
    std::printf("%s %ld\n", b->owner().c_str(), b->balance());
  std::printf("total %ld richest %s\n", audit(banks), richest(banks).c_str());
  for (int i = 0; i < 3; ++i)
    delete banks[i];
  return local.balance() == 6 ? 0 : 1;
}
