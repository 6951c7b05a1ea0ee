// -p DIR takes the file's flags from compile_commands.json, like other Clang
// tools.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: echo '[{"directory": "%S", "file": "%s", "command": "c++ -std=c++20 -DFROM_DB=5 -I%S/Inputs -c %s"}]' > %t.dir/compile_commands.json
// RUN: %pocxx --translate-only -p %t.dir %s -o - | %nochecks | FileCheck %s
#include "input.h"
int main() { return FROM_DB + INPUT_VALUE; }
// CHECK: int poc_user_main() { return FROM_DB + INPUT_VALUE; }
