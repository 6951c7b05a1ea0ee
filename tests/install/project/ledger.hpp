// A process class compiled into a library of its own.
#pragma once

/// Running totals of accounts, kept by one process.
class Ledger {
public:
  explicit Ledger(int accounts);
  /// Adds `amount` to account `account`.
  void deposit(int account, long amount);
  /// Takes `amount` from account `account`; throws std::runtime_error if
  /// the account holds less.
  void withdraw(int account, long amount);
  /// The balance of one account.
  long balance(int account) const;
  /// The sum over every account.
  long total() const;

private:
  static constexpr int kMaxAccounts = 16;
  int accounts_;
  long balances_[kMaxAccounts] = {};
};
