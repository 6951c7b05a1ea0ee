// Pass one: a class created in another file of the program (Worker, created
// in store.cpp) is remotable here too, so calls through it are rewritten.
// RUN: %pocxx --translate-only %S/../e2e/multi/main.cpp --program-source %S/../e2e/multi/store.cpp -o - | FileCheck %s
// CHECK: int n = ::poc_gen::Worker_client::fill_0(worker, 5);
// Without it, main.cpp alone does not know that a Worker may be remote.
// RUN: %pocxx --translate-only %S/../e2e/multi/main.cpp -o - | FileCheck %s --check-prefix=ALONE
// ALONE: int n = worker->fill(5);
