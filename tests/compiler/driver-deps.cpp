// Dependency files as build systems ask for them (Ninja passes
// -MD -MT $out -MF $DEP_FILE): the user's source and the headers it
// includes, under the target asked for, never poc++'s temporary translation.
// A plain C++ file gets exactly the file clang++ writes.
// RUN: rm -rf %t.plain && mkdir -p %t.plain
// RUN: %pocxx -c %S/Inputs/plain-deps.cpp -I%S/Inputs -MD -MT plain.o -MF %t.plain/poc.d -o %t.plain/poc.o
// RUN: %clangxx -c %S/Inputs/plain-deps.cpp -I%S/Inputs -MD -MT plain.o -MF %t.plain/clang.d -o %t.plain/clang.o
// RUN: diff %t.plain/clang.d %t.plain/poc.d
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %pocxx -c %s -I%S/Inputs -MD -MT out/driver-deps.cpp.o -MF %t.dir/deps.d -o %t.dir/deps.o
// RUN: test -s %t.dir/deps.o
// RUN: FileCheck %s --check-prefix=MD --implicit-check-not=poc.cpp < %t.dir/deps.d
// MD: out/driver-deps.cpp.o: \
// MD-NEXT: {{.*}}driver-deps.cpp \
// MD: {{.*}}Inputs/input.h
// MD: {{.*}}poc/gen/runtime.hpp
//
// -MMD leaves out system headers; -MP adds a phony target per header; the
// file goes beside the object without -MF.
// RUN: %pocxx -c %s -I%S/Inputs -MMD -MP -o %t.dir/mmd.o
// RUN: FileCheck %s --check-prefix=MMD --implicit-check-not=include/c++ < %t.dir/mmd.d
// MMD: mmd.o: \
// MMD: {{.*}}Inputs/input.h
// MMD: {{.*}}Inputs/input.h:
//
// -M alone prints the rule and compiles nothing.
// RUN: %pocxx -M %s -I%S/Inputs | FileCheck %s --check-prefix=M
// M: driver-deps.o: \
// M: {{.*}}Inputs/input.h
#include "input.h"
struct Holder {
  int value() const { return INPUT_VALUE; }
};
int main() {
  Holder *h = new ("machine1") Holder;
  return h->value() - INPUT_VALUE;
}
