#pragma once
#define COUNTER_START 40

class Counter {
public:
  explicit Counter(int first) : n(first) {}
  void add(int k) { n += k; }
  int get() const { return n; }

private:
  int n;
};
