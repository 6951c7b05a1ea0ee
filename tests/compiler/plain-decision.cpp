// Whether a file has process operations is decided by the file as the
// user's flags parse it, never by searching its text: a plain file never
// sees another standard, and gets clang++'s answer (issue 41, items 2-6).
// tests/compiler/compare runs the same cases against clang++ itself.
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir
//
// No silent retry under C++20: a file that fails under the default
// standard fails, as with clang++ (CMake's check_cxx_source_compiles).
// RUN: printf '#if __cplusplus < 202002L\n#error needs C++20\n#endif\nint main() {}\n' > cxx20.cpp
// RUN: not %pocxx -c cxx20.cpp 2>&1 | FileCheck %s --check-prefix=RETRY --implicit-check-not=error:
// RETRY: cxx20.cpp:2:2: error: needs C++20
// RUN: not test -e cxx20.o
//
// `new (`, `poc` and `__POCXX__` in a plain file change nothing: it keeps
// -std=c++17 (u8"x" is a const char array there).
// RUN: printf '#include <new>\nconst char *s = u8"x";\nvoid f(void *p) { new (p) int(0); }\nint main() { return *s == 0x78 ? 0 : 1; }\n' > u8.cpp
// RUN: %pocxx -std=c++17 u8.cpp -o u8 && ./u8
// RUN: printf '#ifdef __POCXX__\n#error not poc++\n#endif\nint main() {}\n' > macro.cpp
// RUN: %pocxx -c macro.cpp -o macro.o
//
// A namespace poc of the user's own is plain C++: linked as clang++ links
// it, without MPI or the runtime.
// RUN: printf 'namespace poc { int f() { return 0; } }\nint main() { return poc::f(); }\n' > own.cpp
// RUN: %pocxx own.cpp -o own && ./own
// RUN: llvm-readelf -d own | FileCheck %s --check-prefix=OWN --implicit-check-not=mpi --implicit-check-not=fmt --implicit-check-not=poc
// OWN: NEEDED
//
// A function named `start`, in a file with process operations too:
// `start()` calls it (nothing can be started in empty parentheses).
// RUN: %pocxx %s -o start && ./start | FileCheck %s --check-prefix=START
// START: start 7 7 7
//
// -flto, and an output that is no regular file: no record is attached,
// nothing is renamed onto /dev/null.
// RUN: %pocxx -flto -c u8.cpp -o lto.o
// RUN: %pocxx -flto=thin -c u8.cpp -o thin.o
// RUN: %pocxx -c u8.cpp -o /dev/null
// RUN: test -c /dev/null
// A file with process operations under -flto is compiled without LTO, so
// that its object holds the record the link reads.
// RUN: printf 'int helper() { return 1; }\n' > helper.cpp
// RUN: %pocxx -flto -c helper.cpp -o helper.o
// RUN: %pocxx -flto -c %S/Inputs/hello.cpp -o hello-lto.o
// RUN: %pocxx -flto hello-lto.o helper.o -o hello-lto 2>&1 | count 0
// RUN: ./hello-lto | FileCheck %s --check-prefix=HELLO
// HELLO: hello 42
//
// Headers to precompile, C, assembly and a .c file, as clang++ takes them.
// RUN: printf '#pragma once\ninline int g() { return 1; }\n' > pch.hpp
// RUN: %pocxx -x c++-header pch.hpp -o pch.hpp.pch
// RUN: %pocxx -include-pch pch.hpp.pch -x c++ -c macro.cpp -o with-pch.o
// RUN: printf 'int main(void) { return 0; }\n' > c.txt
// RUN: %pocxx -x c -c c.txt -o c.o
// RUN: printf '.text\n.globl f\nf:\n ret\n' > asm.S
// RUN: %pocxx -c asm.S -o asm.o
// RUN: llvm-nm asm.o | FileCheck %s --check-prefix=ASM
// ASM: T f
// RUN: printf 'int main() { return 0; }\n' > w.c
// RUN: not %pocxx -Werror -c w.c 2>&1 | FileCheck %s --check-prefix=DOTC
// DOTC: poc++: error: treating 'c' input as 'c++' when in C++ mode, this behavior is deprecated [-Werror,-Wdeprecated]
//
// Diagnostics: a file named relatively is shown so; a link error names
// poc++.
// RUN: mkdir -p sub && printf 'int main() { return missing; }\n' > sub/bad.cpp
// RUN: not %pocxx -c sub/bad.cpp 2>&1 | FileCheck %s --check-prefix=REL
// REL: {{^}}sub/bad.cpp:1:21: error:
// RUN: printf 'int undefined_function();\nint main() { return undefined_function(); }\n' > undef.cpp
// RUN: not %pocxx undef.cpp -o undef 2>&1 | FileCheck %s --check-prefix=LINK
// LINK: poc++: error: linker command failed
//
// Toolchain questions clang++ answers without input.
// RUN: %pocxx -print-multi-directory | FileCheck %s --check-prefix=MULTI
// MULTI: {{^\.$}}
// RUN: %pocxx -print-targets | FileCheck %s --check-prefix=TARGETS
// TARGETS: x86-64
#include <cstdio>

struct Counter {
  int v = 7;
  int f() const { return v; }
  Counter *operator->() { return this; }
};
Counter start() { return {}; }

class Worker {
public:
  int get() const { return 7; }
};

int main() {
  Worker *w = new ("machine1") Worker;
  auto r = start().f();
  std::printf("start %d %d %d\n", r, start()->f(), w->get());
  delete w;
  return 0;
}
