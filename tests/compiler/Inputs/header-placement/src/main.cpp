// Includes its headers from a sibling folder, as a project with src/ and
// include/ does.
#include "../include/portfolio.hpp"
#include "../include/stock_util.hpp"

#include <cstdio>

int main() {
  Stock *a = new ("m") Stock(3);
  Stock *b = new ("m") Stock(4);
  b->set_price(5);
  std::printf("total %ld\n", total(a, b));
  delete a;
  delete b;
  return 0;
}
