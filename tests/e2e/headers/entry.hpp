#pragma once
// No process operations: read as it is, also from the rewritten ledger.hpp.
#include <string>

struct Entry {
  std::string name;
  long amount = 0;
};
