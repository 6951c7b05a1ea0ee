#!/bin/sh
# Compile-time benchmark (bench/RESULTS.md, section "Compiler"):
# CPU time (user+sys, including child processes, best of N runs) of
#   baseline: clang++-19 -std=c++20 -c of program.cpp with <poc/poc.hpp>
#             (the `start` keywords removed, so that it is plain C++), and
#   poc++ -c program.cpp with the system compiler set to clang++-19
#             (translation + compilation of the translation), and
#   poc++ -c program.cpp with the default system compiler (mpicxx, g++).
# usage: bench/compile/run.sh <build-dir> [runs]
set -eu
build=$(cd "$1" && pwd)
runs=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
src=$here/program.cpp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed 's/\bstart //' "$src" > "$work/plain.cpp"
runtime_include=$(cd "$here/../../runtime/include" && pwd)
mpi_flags=$(mpicxx --showme:compile)

cpu() { # best user+sys seconds of a command over $runs runs
  best=
  i=0
  while [ $i -lt "$runs" ]; do
    /usr/bin/time -o "$work/time" -f "%U %S" "$@" >/dev/null 2>&1
    t=$(tail -1 "$work/time" | awk '{ printf "%.2f", $1 + $2 }')
    if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
    i=$((i + 1))
  done
  echo "$best"
}

base=$(cpu clang++-19 -std=c++20 -isystem "$runtime_include" $mpi_flags \
  -include poc/poc.hpp -c "$work/plain.cpp" -o "$work/plain.o")
pocclang=$(cpu env POC_CXX=clang++-19 "$build/compiler/poc++" -c "$src" -o "$work/p1.o")
pocdefault=$(cpu "$build/compiler/poc++" -c "$src" -o "$work/p2.o")
translate=$(cpu "$build/compiler/poc++" --translate-only "$src" -o "$work/t.cpp")
echo "program: $(wc -l < "$src") lines; best of $runs runs, CPU seconds"
echo "clang++-19 -c (baseline):        $base"
echo "poc++ --translate-only:          $translate"
echo "poc++ -c, POC_CXX=clang++-19:    $pocclang  ratio $(awk "BEGIN { printf \"%.2f\", $pocclang / $base }")"
echo "poc++ -c, default (mpicxx, g++): $pocdefault  ratio $(awk "BEGIN { printf \"%.2f\", $pocdefault / $base }")"
