#include "store.hpp"
#include <cstdio>

int main() {
  Store *store = new ("machine1") Store;
  Worker *worker = make_worker("machine2", store);
  int n = worker->fill(5);
  std::printf("filled %d, key3 = %d, missing = %d\n", n, store->get("key3"), store->get("nope"));
  delete worker;
  delete store;
  return 0;
}
