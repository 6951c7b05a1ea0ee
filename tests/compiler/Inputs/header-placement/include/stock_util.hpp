// A class in a header with no process operations of its own: a program
// creates it as a process, and another header calls it.
#pragma once

class Stock {
public:
  explicit Stock(long price) : price_(price) {}
  long price() const { return price_; }
  void set_price(long price) { price_ = price; }

private:
  long price_;
};
