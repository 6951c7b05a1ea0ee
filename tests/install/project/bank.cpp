// Creates a Ledger process (from the library) and a page device from the
// installed stdlib, then talks to both through ordinary pointers.
#include "ledger.hpp"

#include <pocstd/page_device.hpp>

#include <cstdio>

int main() {
  Ledger *ledger = new ("bank") Ledger(4);
  for (int i = 0; i < 100; ++i)
    start ledger->deposit(i, i);
  std::printf("account 1: %ld, total: %ld\n", ledger->balance(1), ledger->total());

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
