// `start` wherever an expression can stand (issue 23, part 3): where the
// value is used, a started call is its future (`_future`); where it is
// dropped (a statement, a comma fold), it is sent and forgotten (`_start`).
// tests/e2e/start_expressions.cpp runs the program.
// RUN: %pocxx --translate-only %S/../e2e/start_expressions.cpp -o - | FileCheck %s

// A return value.
// CHECK: poc::future<long> balanceLater(Bank *b) { return ::poc_gen::Bank_client::balance_0_future(b); }

// Default member initializers, with `=` and with braces.
// CHECK: poc::future<long> first = ::poc_gen::Bank_client::balance_0_future(bank);
// CHECK-NEXT: poc::future<long> second{::poc_gen::Bank_client::withdraw_0_future(bank, 1)};

// Fold expressions: a comma fold drops the values, a parenthesised operand
// is a future.
// CHECK: (::poc_gen::start_deposit(banks, amount), ...);
// CHECK: return ((::poc_gen::future_balance(banks)).get() + ...);

// Function arguments.
// CHECK: v.push_back(::poc_gen::Bank_client::balance_0_future(b));
// CHECK-NEXT: v.emplace_back(::poc_gen::Bank_client::withdraw_0_future(a, 10));
// CHECK: done.push_back(::poc_gen::Bank_client::deposit_0_future(a, 5));

// Initializer lists.
// CHECK: std::vector<poc::future<long>> w{::poc_gen::Bank_client::balance_0_future(a), ::poc_gen::Bank_client::balance_0_future(b)};
// CHECK-NEXT: poc::future<long> braced{::poc_gen::Bank_client::withdraw_0_future(b, 20)};
// CHECK-NEXT: std::tuple<poc::future<long>, int> t{::poc_gen::Bank_client::balance_0_future(a), 7};

// Operands of a conditional.
// CHECK: auto c = first ? ::poc_gen::Bank_client::balance_0_future(a) : ::poc_gen::Bank_client::balance_0_future(b);
// CHECK-NEXT: poc::future<long> d = !first ? ::poc_gen::Bank_client::withdraw_0_future(a, 1) : ::poc_gen::Bank_client::withdraw_0_future(b, 1);

// Lambda bodies.
// CHECK: auto later = [b] { return ::poc_gen::Bank_client::balance_0_future(b); };
// CHECK-NEXT: auto add = [&](long n) { ::poc_gen::Bank_client::deposit_0_start(a, n); };
