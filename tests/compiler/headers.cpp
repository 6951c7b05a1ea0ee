// Process operations in the user's own header: the header is rewritten into
// a copy under <translation>.headers/ (at its original's absolute path),
// with #line directives naming the original, and the include directive
// names the copy. Headers the copy includes are named by absolute path.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pocxx --translate-only %s -o %t/out.cpp
// RUN: %nochecks < %t/out.cpp | FileCheck %s --check-prefix=MAIN
// RUN: FileCheck %s --check-prefix=HDR < %t/out.cpp.headers%S/Inputs/header-calls.hpp
// The copy needs a file of its own: not with the translation on stdout.
// RUN: not %pocxx --translate-only %s -o - 2>&1 | FileCheck %s --check-prefix=STDOUT

// MAIN: #include "{{.*}}out.cpp.headers{{.*}}/Inputs/header-calls.hpp"
#include "Inputs/header-calls.hpp"

int main() {
  Meter *m = new ("m") Meter();
  // MAIN: Meter *m = ::poc_gen::Meter_client::create_0("m");
  return readTwice(m);
}
// MAIN: inline void poc_gen::Meter_client::reset_0_start(::Meter *self, int to) {
// MAIN: inline int poc_gen::Meter_client::read_0(const ::Meter *self) {

// HDR: #line 1 "{{.*}}/Inputs/header-calls.hpp"
// HDR-NEXT: #pragma once
// HDR-NEXT: #include "{{/.*}}/Inputs/input.h"
// HDR: #line {{[0-9]+}} "{{.*}}out.cpp.headers{{.*}}/Inputs/header-calls.hpp"
// HDR-NEXT: // poc++: remote interface of class 'Meter' (header-calls.hpp:4).
// HDR: struct Meter_client : Meter_interface {
// HDR: #line 11 "{{.*}}/Inputs/header-calls.hpp"
// HDR-NEXT: inline int readTwice(Meter *m) {
// HDR-NEXT: ::poc_gen::Meter_client::reset_0_start(m, 0);
// HDR-NEXT: return ::poc_gen::Meter_client::read_0(m) + ::poc_gen::Meter_client::read_0(m);

// STDOUT: header-calls.hpp:1:1: error: poc++ does not support process operations in a header when the translation is written to standard output
