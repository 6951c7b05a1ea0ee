#pragma once
class Bank;

/// Pays \p amount into \p bank: a file that only calls the class.
void pay(Bank *bank, long amount);
