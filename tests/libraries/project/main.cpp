#include "bank.hpp"
#include "pay.hpp"

#include <cstdio>

int main() {
  Bank *bank = new ("m") Bank;
  pay(bank, 5);
  pay(bank, 37);
  std::printf("balance: %ld\n", bank->balance());
  delete bank;
  return 0;
}
