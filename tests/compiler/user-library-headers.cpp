// Large libraries included as user headers (through -I, not -isystem) are
// compiled as clang++ compiles them: the record of the classes a plain file
// calls (pocc/ClassCalls.h) walks every template they hold, including
// `delete` of an object whose type a template argument decides, which has
// no destroyed type until it is instantiated (poc++ once crashed on it).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pocxx -std=c++17 -c %S/Inputs/gmock-user.cpp -I/usr/src/googletest/googlemock/include -I/usr/src/googletest/googletest/include -o %t/gmock-user.o 2>&1 | FileCheck %s --allow-empty --implicit-check-not={{.}}
// RUN: %clangxx -std=c++17 -c %S/Inputs/gmock-user.cpp -I/usr/src/googletest/googlemock/include -I/usr/src/googletest/googletest/include -o %t/gmock-user-clang.o
// RUN: llvm-objcopy --remove-section=.poc.object %t/gmock-user.o %t/gmock-user-plain.o
// RUN: cmp %t/gmock-user-plain.o %t/gmock-user-clang.o
//
// The shapes themselves, used and left uninstantiated.
// RUN: %pocxx -std=c++17 -c %s -I%S/Inputs -o %t/shapes.o 2>&1 | FileCheck %s --allow-empty --implicit-check-not={{.}}
// RUN: %pocxx -std=c++20 %s -I%S/Inputs -o %t/shapes
// RUN: %t/shapes
#include "dependent-delete.hpp"

int main() {
  Holder<Counted> h;
  h.held = new Counted;
  Counted c;
  int got = h.peek() + h.call(c);
  h.reset();
  destroy(new Counted);
  return got == 15 ? 0 : 1;
}
