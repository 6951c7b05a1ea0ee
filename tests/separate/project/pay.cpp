#include "pay.hpp"
#include "bank.hpp"

void pay(Bank *bank, long amount) { bank->deposit(amount); }
