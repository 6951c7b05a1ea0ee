// Process operations in inline functions and templates of the user's own
// header (ledger.hpp), called from the program.
#include "ledger.hpp"
#include <cstdio>

int main() {
  std::vector<Entry> entries{{"rent", 500}, {"food", 120}};
  std::printf("postAll: %ld\n", postAll("m1", entries));
  Ledger *ledger = new ("m2") Ledger();
  ledger->post(Entry{"book", 30});
  std::printf("entries: %d, balance %ld\n", entriesOf(ledger), balanceOf(ledger));
  delete ledger;
  return 0;
}
