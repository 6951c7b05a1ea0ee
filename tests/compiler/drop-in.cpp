// poc++ answers what a build system asks a C++ compiler, and takes what
// clang++ takes.
//
// Questions about the toolchain, with no input, are answered as clang++
// answers them (--version first names poc++).
// RUN: %pocxx --version | FileCheck %s --check-prefix=VERSION
// VERSION: poc++ version {{[0-9]+\.[0-9]+\.[0-9]+}}
// VERSION-NEXT: clang version 19
// RUN: %pocxx -dumpversion | FileCheck %s --check-prefix=DUMPVERSION
// DUMPVERSION: {{^19\.}}
// RUN: %pocxx -print-file-name=libstdc++.so | FileCheck %s --check-prefix=FILENAME
// FILENAME: {{^/.*/libstdc\+\+\.so$}}
// RUN: %pocxx -print-search-dirs | FileCheck %s --check-prefix=SEARCH
// SEARCH: programs: =
// SEARCH: libraries: =
//
// A missing input is one error, named as clang++ names it.
// RUN: not %pocxx %S/missing.cpp -o %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING --implicit-check-not=error
// MISSING: poc++: error: no such file or directory: '{{.*}}missing.cpp'
//
// The source from standard input; its diagnostics and lines name <stdin>.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %pocxx -x c++ - -o %t.dir/from-stdin < %S/Inputs/hello.cpp
// RUN: %t.dir/from-stdin | FileCheck %s --check-prefix=HELLO
// HELLO: hello 42
// RUN: echo 'int main() { return undeclared; }' | not %pocxx -x c++ - -o %t.dir/bad 2>&1 | FileCheck %s --check-prefix=STDIN-ERROR
// STDIN-ERROR: <stdin>:1:21: error: use of undeclared identifier 'undeclared'
//
// -E: line markers name the user's files, never the translation or its
// header copies.
// RUN: %pocxx -E %S/Inputs/hello.cpp | FileCheck %s --check-prefix=PREPROCESSED --implicit-check-not=poc.cpp
// PREPROCESSED: # 1 "{{.*}}Inputs/hello.cpp"
//
// -no-pie reaches the link: the executable is not position-independent.
// RUN: %pocxx -no-pie %S/Inputs/hello.cpp -o %t.dir/no-pie
// RUN: llvm-readelf -h %t.dir/no-pie | FileCheck %s --check-prefix=NOPIE
// NOPIE: Type: EXEC
// RUN: %t.dir/no-pie | FileCheck %s --check-prefix=HELLO
//
// Generated code is free of warnings under -Wall -Wextra -Wpedantic (an
// operand class in an anonymous namespace once gave -Wunused-const-variable).
// RUN: %pocxx -Wall -Wextra -Wpedantic -Werror %S/Inputs/anonymous-operand.cpp -o %t.dir/anonymous
// RUN: %t.dir/anonymous | FileCheck %s --check-prefix=ANONYMOUS
// ANONYMOUS: total 3
int main() { return 0; }
