// A bank account: an ordinary class. Nothing in this header or in bank.cpp
// mentions processes; main.cpp creates banks as processes.
#pragma once
#include <string>

class Bank {
public:
  Bank(std::string owner, long opening);
  void deposit(long amount);
  /// Takes \p amount out if the balance covers it.
  bool withdraw(long amount);
  long balance() const;
  std::string owner() const;

private:
  std::string name;
  long total;
};
