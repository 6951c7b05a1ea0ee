// poc++ reads its command line with Clang's own option table: each option
// family keeps the meaning clang++ gives it.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
//
// Linker flags reach only the link: -pie was once read as "-p ie".
// RUN: %pocxx -pie -Wl,--as-needed -L%t.dir %S/Inputs/hello.cpp -o %t.dir/pie
// RUN: %t.dir/pie | FileCheck %s --check-prefix=HELLO
// HELLO: hello 42
//
// Sources mixed with objects, and several sources at once.
// RUN: %pocxx -c %S/Inputs/hello.cpp -o %t.dir/hello.o
// RUN: %pocxx %t.dir/hello.o -o %t.dir/from-object
// RUN: %t.dir/from-object | FileCheck %s --check-prefix=HELLO
//
// -x c++ makes a source of a file with another name; other languages are
// compiled as clang++ compiles them (plain-decision.cpp), and a language
// clang++ does not know is its error.
// RUN: cp %S/Inputs/hello.cpp %t.dir/hello.txt
// RUN: %pocxx -x c++ %t.dir/hello.txt -o %t.dir/from-txt
// RUN: %t.dir/from-txt | FileCheck %s --check-prefix=HELLO
// RUN: not %pocxx -x cobol %t.dir/hello.txt 2>&1 | FileCheck %s --check-prefix=LANG --implicit-check-not=error:
// LANG: poc++: error: language not recognized: 'cobol'
//
// @response files, as with clang++.
// RUN: echo "-O2 -g %S/Inputs/hello.cpp -o %t.dir/from-rsp" > %t.dir/args.rsp
// RUN: %pocxx @%t.dir/args.rsp
// RUN: %t.dir/from-rsp | FileCheck %s --check-prefix=HELLO
//
// -S writes assembly, -E the preprocessed translation.
// RUN: %pocxx -S %S/Inputs/hello.cpp -o %t.dir/hello.s
// RUN: FileCheck %s --check-prefix=ASM < %t.dir/hello.s
// ASM: .file "hello.poc.cpp"
// RUN: %pocxx -E %S/Inputs/hello.cpp | FileCheck %s --check-prefix=PRE
// PRE: return ::poc::run(argc, argv, &poc_user_main);
//
// -fsyntax-only checks the program (the translation included) and writes
// nothing: no object, no link.
// RUN: cd %t.dir && %pocxx -fsyntax-only %S/Inputs/hello.cpp
// RUN: not ls %t.dir/hello.o %t.dir/a.out
// RUN: echo 'int main() { return nothing; }' > %t.dir/broken.cpp
// RUN: not %pocxx -fsyntax-only %t.dir/broken.cpp 2>&1 | FileCheck %s --check-prefix=SYNTAX --implicit-check-not=error:
// SYNTAX: broken.cpp:1:21: error: use of undeclared identifier 'nothing'
//
// -### prints the commands and runs none of them.
// RUN: %pocxx -### %S/Inputs/hello.cpp -o %t.dir/never 2>&1 | FileCheck %s --check-prefix=DRY
// DRY: "-c" "{{.*}}hello.poc.cpp" "-o"
// DRY: "-o" "{{.*}}never"
// RUN: not test -e %t.dir/never
//
// -fsanitize= reaches compile and link; -g and -W the compile.
// RUN: %pocxx -fsanitize=undefined -g -Wall %S/Inputs/hello.cpp -o %t.dir/ubsan
// RUN: %t.dir/ubsan | FileCheck %s --check-prefix=HELLO
//
// An option is passed on as the user spelled it, not as Clang's table
// names it: GCC as the system compiler knows -g1 but not its Clang name
// -gline-tables-only.
// RUN: env POC_CXX=g++ %pocxx -### -g1 -O1 %S/Inputs/hello.cpp -o %t.dir/never 2>&1 | FileCheck %s --check-prefix=SPELLING --implicit-check-not=line-tables
// SPELLING: "-g1" "-O1"
// RUN: env POC_CXX=g++ %pocxx -g1 -c %S/Inputs/hello.cpp -o %t.dir/hello-g1.o
//
// -std= at C++20 or later is passed on. A file with process operations
// under an older standard is one clear error at its first operation; a
// plain C++ file keeps the standard it asks for.
// RUN: %pocxx -std=c++23 %S/Inputs/hello.cpp -o %t.dir/cxx23
// RUN: not %pocxx -std=c++17 %S/Inputs/hello.cpp 2>&1 | FileCheck %s --check-prefix=STD --implicit-check-not=error:
// STD: hello.cpp:10:16: error: process operations need C++20 or later, but this file is compiled with '-std=c++17'; compile it with -std=c++20 (files without process operations keep their standard)
// STD-NEXT: Greeter *g = new ("machine1") Greeter;
// RUN: echo 'int main() { const char *s = u8"x"; return *s == 0x78 ? 0 : 1; }' > %t.dir/cxx17.cpp
// RUN: %pocxx -std=c++17 %t.dir/cxx17.cpp -o %t.dir/cxx17
// RUN: %t.dir/cxx17
// RUN: not %pocxx -std=c++20 %t.dir/cxx17.cpp 2>&1 | FileCheck %s --check-prefix=CXX20 --implicit-check-not=error:
// CXX20: cxx17.cpp:1:26: error: cannot initialize a variable of type 'const char *' with an lvalue of type 'const char8_t[2]'
// RUN: not %pocxx -std=c++4x %S/Inputs/hello.cpp 2>&1 | FileCheck %s --check-prefix=BADSTD
// BADSTD: poc++: error: invalid value 'c++4x' in '-std=c++4x'
//
// An option clang++ does not know is an error, as in clang++.
// RUN: not %pocxx -frobnicate %S/Inputs/hello.cpp 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: poc++: error: unknown argument: '-frobnicate'
int main() { return 0; }
