#ifndef LEDGER_HPP
#define LEDGER_HPP
// A header whose inline functions create, call, start and delete processes:
// poc++ rewrites it into a copy beside the translation of main.cpp.
#include "entry.hpp"
#include <vector>

class Ledger {
public:
  Ledger() = default;
  void post(const Entry &e) {
    total += e.amount;
    ++count;
  }
  long balance() const { return total; }
  int entries() const { return count; }

private:
  long total = 0;
  int count = 0;
};

/// Posts every entry to a new Ledger process and returns its balance.
inline long postAll(const char *machine, const std::vector<Entry> &entries) {
  Ledger *ledger = new (machine) Ledger();
  for (const Entry &e : entries)
    start ledger->post(e);
  poc::sync();
  long balance = ledger->balance();
  delete ledger;
  return balance;
}

inline int entriesOf(Ledger *ledger) { return ledger->entries(); }

/// A template in a header, through its parameter's pointer.
template <class T> long balanceOf(T *account) { return account->balance(); }

#endif
