#pragma once
// A plain class; main.cpp creates it as a process, pay.cpp only calls it.
class Bank {
public:
  void deposit(long amount) { balance_ += amount; }
  long balance() const { return balance_; }

private:
  long balance_ = 0;
};
