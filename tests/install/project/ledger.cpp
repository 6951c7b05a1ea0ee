#include "ledger.hpp"

#include <stdexcept>
#include <string>

Ledger::Ledger(int accounts) : accounts_(accounts) {
  if (accounts <= 0 || accounts > kMaxAccounts)
    throw std::invalid_argument("Ledger: 1 to 16 accounts");
}

void Ledger::deposit(int account, long amount) { balances_[account % accounts_] += amount; }

void Ledger::withdraw(int account, long amount) {
  long &balance = balances_[account % accounts_];
  if (balance < amount)
    throw std::runtime_error("account " + std::to_string(account) + " holds " +
                             std::to_string(balance) + ", cannot withdraw " +
                             std::to_string(amount));
  balance -= amount;
}

long Ledger::balance(int account) const { return balances_[account % accounts_]; }

long Ledger::total() const {
  long sum = 0;
  for (int i = 0; i < accounts_; ++i)
    sum += balances_[i];
  return sum;
}
