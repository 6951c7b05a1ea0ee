// Separate compilation (docs/compiler.md section 8, "Separate compilation"), on the five-file
// project of tests/separate: what each object records, the link compiling
// a file again, and the forms the link cannot repair, each one error that
// names the file, the function and the class and says what to do.
// RUN: rm -rf %t && mkdir -p %t && cp %S/../separate/project/*.?pp %t/
// RUN: cd %t && %pocxx -c pay.cpp -o pay.o
// RUN: cd %t && %pocxx -c main.cpp -o main.o
// RUN: cd %t && %pocxx -c audit.cpp -o audit.o
// RUN: cd %t && %pocxx -c bank.cpp -o bank.o
// RUN: cd %t && %pocxx -c transfer.cpp -o transfer.o
//
// pay.cpp only calls Bank: it is plain C++, and says so.
// RUN: llvm-readelf -p .poc.object %t/pay.o | FileCheck %s --check-prefix=PAY
// PAY: "calls":[{"class":"Bank","function":"pay","location":"pay.cpp:4","rewritten":false}]
// PAY-SAME: "creates":[]
// PAY-SAME: "translated":false
// main.cpp creates Bank: translated, defines main.
// RUN: llvm-readelf -p .poc.object %t/main.o | FileCheck %s --check-prefix=MAIN
// MAIN: "creates":["Bank"],"defines_main":true
// MAIN-SAME: "translated":true
// The template instantiated in audit.cpp is recorded where it calls.
// RUN: llvm-readelf -p .poc.object %t/audit.o | FileCheck %s --check-prefix=AUDIT
// AUDIT: {"class":"Bank","function":"total","location":"{{(\./)?}}audit.hpp:10","rewritten":false}
//
// The link compiles again each file whose calls were not rewritten (-v
// says which and why), and the program works.
// RUN: cd %t && %pocxx -v main.o pay.o audit.o bank.o transfer.o -o app 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN-DAG: poc++: compiling {{.*}}pay.cpp again: pay.o calls methods of class 'Bank' (pay.cpp:4, in pay), which the program creates as a process, and was compiled without knowing it
// AGAIN-DAG: poc++: compiling {{.*}}audit.cpp again: audit.o calls methods of class 'Bank'
// AGAIN-DAG: poc++: compiling {{.*}}transfer.cpp again
// RUN: %t/app | diff - %S/../separate/project/expected.txt
//
// --process-class: a file compiled knowing Bank is a process class needs
// nothing at the link.
// RUN: cd %t && %pocxx -c pay.cpp --process-class Bank -o pay-knows.o
// RUN: llvm-readelf -p .poc.object %t/pay-knows.o | FileCheck %s --check-prefix=KNOWS
// KNOWS: "rewritten":true
// KNOWS-SAME: "translated":true
// RUN: cd %t && %pocxx -v main.o pay-knows.o audit.o bank.o transfer.o -o app2 2>&1 | FileCheck %s --check-prefix=NOT-PAY
// NOT-PAY-NOT: compiling {{.*}}pay.cpp again
//
// A source changed since its object was compiled cannot be compiled again.
// RUN: echo "// changed" >> %t/pay.cpp
// RUN: cd %t && not %pocxx main.o pay.o audit.o bank.o transfer.o -o changed 2>&1 | FileCheck %s --check-prefix=CHANGED --implicit-check-not=error:
// CHANGED: poc++: error: pay.o calls methods of class 'Bank' (pay.cpp:4, in pay), which the program creates as a process, and was compiled without knowing it; poc++ cannot compile {{.*}}pay.cpp again for this link: the file changed since pay.o was compiled; rebuild it
// RUN: not test -e %t/changed
//
// A shared library cannot be compiled again: the program's link says so.
// RUN: cd %t && %pocxx -fPIC -c pay.cpp -o pay-pic.o && %pocxx -shared pay-pic.o -o libpay.so
// RUN: cd %t && not %pocxx main.o audit.o bank.o transfer.o -L%t -lpay -o shared 2>&1 | FileCheck %s --check-prefix=SHARED --implicit-check-not=error:
// SHARED: poc++: error: {{.*}}libpay.so calls methods of class 'Bank' (pay.cpp:4, in pay), which the program creates as a process, and was compiled without knowing it; a shared library cannot be compiled again for this link: compile {{.*}}pay.cpp with --process-class Bank (in CMake: poc_add_library(... PROCESS_CLASSES Bank)) and link the library again
// RUN: cd %t && %pocxx -fPIC -c pay.cpp --process-class Bank -o pay-pic.o && %pocxx -shared pay-pic.o -o libpay.so
// RUN: cd %t && %pocxx main.o audit.o bank.o transfer.o -L%t -lpay -Wl,-rpath,%t -o shared
// RUN: %t/shared | diff - %S/../separate/project/expected.txt
//
// A source that is gone (an installed library's, say) cannot be compiled
// again either.
// RUN: rm %t/pay.cpp
// RUN: cd %t && not %pocxx main.o pay.o audit.o bank.o transfer.o -o gone 2>&1 | FileCheck %s --check-prefix=GONE --implicit-check-not=error:
// GONE: poc++: error: pay.o calls methods of class 'Bank' (pay.cpp:4, in pay), which the program creates as a process, and was compiled without knowing it; poc++ cannot compile {{.*}}pay.cpp again for this link: the file is not there; build pay.o again from its source with --process-class Bank (in CMake: poc_add_library(... PROCESS_CLASSES Bank))
// RUN: not test -e %t/gone
