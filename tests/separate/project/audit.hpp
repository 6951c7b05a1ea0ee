#pragma once
#include <string>
#include <vector>

/// The sum of the balances of \p accounts (pointers kept in a container),
/// instantiated in audit.cpp.
template <class Account> long total(const std::vector<Account *> &accounts) {
  long sum = 0;
  for (Account *a : accounts)
    sum += a->balance();
  return sum;
}

class Bank;
long audit(const std::vector<Bank *> &banks);
std::string richest(const std::vector<Bank *> &banks);
