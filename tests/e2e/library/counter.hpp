// A process class in a library built with poc_add_library: the program
// that uses it never creates it, so the class says it is remotable.
#pragma once

class __attribute__((annotate("poc::remote"))) Counter {
public:
  Counter() = default;
  int add(int k);

private:
  int total = 0;
};

/// Creates a Counter process on `machine` (in the library).
Counter *make_counter(const char *machine);
