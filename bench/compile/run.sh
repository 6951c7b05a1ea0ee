#!/bin/sh
# Compile-time benchmark (bench/RESULTS.md, section "Compiler"):
# CPU time (user+sys, including child processes, best of N runs, the
# commands taking turns) of
#   baseline: clang++-19 -std=c++20 -c of program.cpp with <poc/poc.hpp>
#             (the `start` keywords removed, so that it is plain C++), and
#   poc++ -c program.cpp with the default system compiler (the Clang 19
#             poc++ is built on; translation + compilation of the
#             translation), and
#   poc++ -c program.cpp with POC_CXX=mpicxx (g++ 12, with its
#             precompiled <poc/poc.hpp>).
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

# CPU seconds (user+sys) of one run of a command.
cpu() {
  /usr/bin/time -o "$work/time" -f "%U %S" "$@" >/dev/null 2>&1
  tail -1 "$work/time" | awk '{ printf "%.2f", $1 + $2 }'
}
# The smaller of a best so far ($1, empty at first) and a run ($2).
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'; }

# The commands take turns, so that a change in the machine's load during
# the measurement affects them alike; each keeps its best run.
base= translate= pocdefault= pocmpicxx=
i=0
while [ $i -lt "$runs" ]; do
  base=$(min "$base" "$(cpu clang++-19 -std=c++20 -isystem "$runtime_include" \
    $mpi_flags -include poc/poc.hpp -c "$work/plain.cpp" -o "$work/plain.o")")
  translate=$(min "$translate" "$(cpu "$build/compiler/poc++" --translate-only \
    "$src" -o "$work/t.cpp")")
  pocdefault=$(min "$pocdefault" "$(cpu "$build/compiler/poc++" -c "$src" \
    -o "$work/p1.o")")
  pocmpicxx=$(min "$pocmpicxx" "$(cpu env POC_CXX=mpicxx \
    "$build/compiler/poc++" -c "$src" -o "$work/p2.o")")
  i=$((i + 1))
done
echo "program: $(wc -l < "$src") lines; best of $runs runs, CPU seconds"
echo "clang++-19 -c (baseline):        $base"
echo "poc++ --translate-only:          $translate"
echo "poc++ -c, default (clang++-19):  $pocdefault  ratio $(awk "BEGIN { printf \"%.2f\", $pocdefault / $base }")"
echo "poc++ -c, POC_CXX=mpicxx (g++):  $pocmpicxx  ratio $(awk "BEGIN { printf \"%.2f\", $pocmpicxx / $base }")"
