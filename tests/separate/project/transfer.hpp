#pragma once
class Bank;

/// Moves \p amount from \p from to \p to if \p from covers it; in the
/// static library libledger, built before the program.
bool transfer(Bank *from, Bank *to, long amount);
