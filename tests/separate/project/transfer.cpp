#include "transfer.hpp"
#include "bank.hpp"

bool transfer(Bank *from, Bank *to, long amount) {
  if (!from->withdraw(amount))
    return false;
  to->deposit(amount);
  return true;
}
