#include "bank.hpp"

#include <utility>

Bank::Bank(std::string owner, long opening) : name(std::move(owner)), total(opening) {}

void Bank::deposit(long amount) { total += amount; }

bool Bank::withdraw(long amount) {
  if (amount > total)
    return false;
  total -= amount;
  return true;
}

long Bank::balance() const { return total; }

std::string Bank::owner() const { return name; }
