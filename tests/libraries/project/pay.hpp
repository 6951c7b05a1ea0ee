#pragma once
class Bank;
/// Deposits `amount` into `bank`, wherever its process runs.
void pay(Bank *bank, long amount);
