#include "audit.hpp"
#include "bank.hpp"

long audit(const std::vector<Bank *> &banks) { return total(banks); }

std::string richest(const std::vector<Bank *> &banks) {
  Bank *best = banks.front();
  for (Bank *b : banks)
    if (b->balance() > best->balance())
      best = b;
  return best->owner();
}
