// The process class both programs serve; the layout of Sample comes from
// the program that includes this header (SAMPLE_FIELDS), so the two
// programs disagree on it as programs built from other sources would.
#pragma once
#include <string>

struct Sample {
  SAMPLE_FIELDS
};

class Store {
public:
  Store() = default;
  void put(const Sample &s) { total += s.value; }
  int count() const { return 7; }
  double sum() const { return total; }

private:
  double total = 0;
};
