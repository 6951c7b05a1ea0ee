#!/usr/bin/env bash
# A plain CMake project (cmake-plain/) configured and built with clang++ and
# with poc++ (through the package's toolchain file): every configure answer
# (implicit link folders, find_library, check_cxx_source_compiles,
# check_ipo_supported, the archiver) must be the same, both must build
# (precompiled headers, LTO, GoogleMock as user headers), and the programs
# must print the same.
#   cmake_plain_compare.sh CLANGXX TOOLCHAIN_FILE PROJECT_DIR
set -euo pipefail
clangxx=$1 toolchain=$2 project=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/poc-cmake-plain-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "cmake_plain_compare: FAIL: $*" >&2; exit 1; }

configure() { # NAME ARGS...
  local name=$1
  shift
  cmake -S "$project" -B "$work/$name" -G Ninja "$@" > "$work/$name.log" 2>&1 ||
    fail "$name: configuring failed: $(tail -20 "$work/$name.log")"
  grep "^-- answer " "$work/$name.log" > "$work/$name.answers"
  cmake --build "$work/$name" > "$work/$name.build.log" 2>&1 ||
    fail "$name: the build failed: $(tail -30 "$work/$name.build.log")"
}
configure clang -DCMAKE_CXX_COMPILER="$clangxx"
configure poc -DCMAKE_TOOLCHAIN_FILE="$toolchain"
cat "$work/poc.answers"
diff "$work/clang.answers" "$work/poc.answers" || fail "the configure answers differ"
grep -q "answer IPO_SUPPORTED=YES" "$work/poc.answers" || fail "IPO is not supported"
grep -q "answer ZLIB_FOUND=TRUE" "$work/poc.answers" || fail "ZLIB was not found"
grep -q "answer DEFAULT_STD_IS_CXX20=$" "$work/poc.answers" ||
  fail "check_cxx_source_compiles found C++20 where the default standard is older"
[[ $("$work/clang/app") == $("$work/poc/app") ]] || fail "the programs print differently"
echo "cmake_plain_compare: PASSED"
