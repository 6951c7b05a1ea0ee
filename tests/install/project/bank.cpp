// Creates a Ledger process (from the library) and a page device from the
// installed stdlib, then talks to both through ordinary pointers; a remote
// exception is caught where the call was made.
#include "ledger.hpp"

#include <pocstd/page_device.hpp>

#include <cstdio>
#include <stdexcept>

int main() {
  Ledger *ledger = new ("bank") Ledger(4);
  for (int i = 0; i < 100; ++i)
    start ledger->deposit(i, i);
  std::printf("account 1: %ld, total: %ld\n", ledger->balance(1), ledger->total());
  // An exception thrown in the process reaches the caller, which goes on.
  try {
    ledger->withdraw(2, 5000);
  } catch (const poc::remote_error &e) {
    std::printf("refused (%s): %s\n", e.is<std::runtime_error>() ? "std::runtime_error" : "?",
                e.message().c_str());
  }
  ledger->withdraw(2, 2);
  std::printf("account 2 after withdrawing 2: %ld\n", ledger->balance(2));

  auto *device = new ("disk") pocstd::PageDevice(pocstd::Storage::memory(), 8, 4096);
  pocstd::Page page(4096);
  page.bytes()[17] = std::byte{42};
  device->write(page, 3);
  pocstd::Page back;
  device->read(back, 3);
  std::printf("page byte 17: %d\n", static_cast<int>(back.bytes()[17]));

  delete device;
  delete ledger;
  return 0;
}
