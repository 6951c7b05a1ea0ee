// Command-line errors are reported, never crashes; --help works.
// RUN: not %pocxx 2>&1 | FileCheck %s --check-prefix=NOINPUT
// NOINPUT: poc++: error: no input files
// RUN: not %pocxx --translate-only %s -o 2>&1 | FileCheck %s --check-prefix=NOARG
// NOARG: poc++: error: missing argument after '-o'
// RUN: not %pocxx --translate-only %S/does-not-exist.cpp -o %t.cpp 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: {{.*}}does-not-exist.cpp{{.*}}
// RUN: %pocxx --help | FileCheck %s --check-prefix=HELP
// HELP: usage: poc++ [options] FILE.cpp... [-o OUT]
// -D and -I reach the parse; --emit-generated keeps the translation;
// -c makes an object file with the system compiler.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %pocxx -c -DVALUE=7 -I%S/Inputs %s -o %t.dir/driver.o --emit-generated %t.dir/gen
// RUN: test -s %t.dir/driver.o
// RUN: FileCheck %s --check-prefix=GEN < %t.dir/gen/driver.poc.cpp
// GEN: int poc_user_main() { return VALUE + INPUT_VALUE; }
// Without -c: compile and link (also from an object file), run bare.
// RUN: %pocxx -c %S/Inputs/hello.cpp -o %t.dir/hello.o
// RUN: %pocxx %t.dir/hello.o -o %t.dir/hello
// RUN: %t.dir/hello | FileCheck %s --check-prefix=HELLO
// RUN: %pocxx -O2 -g -Wall %S/Inputs/hello.cpp -o %t.dir/hello2
// RUN: %t.dir/hello2 | FileCheck %s --check-prefix=HELLO
// HELLO: hello 42
// --emit-generated DIR while linking keeps only generated C++ there (the
// objects go to a temporary folder).
// RUN: rm -rf %t.dir/gen2
// RUN: %pocxx -DVALUE=7 -I%S/Inputs %s -o %t.dir/linked --emit-generated %t.dir/gen2
// RUN: ls %t.dir/gen2 | FileCheck %s --check-prefix=KEPT --implicit-check-not=.o
// KEPT: driver.poc.cpp
#include "input.h"
int main() { return VALUE + INPUT_VALUE; }
