#!/bin/sh
# Compile-time benchmark (bench/RESULTS.md, section "Compiler"): CPU time
# (user+sys, including child processes, best of N runs, the commands taking
# turns) of compiling each source with
#   baseline: clang++-19 -std=c++20 -O2 -c of the source with <poc/poc.hpp>
#             (its `start` keywords removed, so that it is plain C++), and
#   poc++ -O2 -c (translation + compilation of the translation by the
#             default system compiler, the Clang 19 poc++ is built on, with
#             the runtime's precompiled header from poc++'s cache), and
#   the same with POC_PCH=0 (no precompiled header).
# The cache starts empty, so the first poc++ run of each flag set also
# builds the precompiled header: that run is reported on its own.
# Sources: bench/compile/program.cpp, the examples and apps/fft3d.
# The optimisation level is -O2, or $POC_BENCH_OPT (e.g. -O0).
# usage: bench/compile/run.sh <build-dir> [runs]
set -eu
build=$(cd "$1" && pwd)
runs=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

# CPU seconds (user+sys) of one run of a command.
cpu() {
  /usr/bin/time -o "$work/time" -f "%U %S" "$@" >/dev/null 2>&1
  tail -1 "$work/time" | awk '{ printf "%.2f", $1 + $2 }'
}
# The smaller of a best so far ($1, empty at first) and a run ($2).
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

first=$(compile_poc "$here/program.cpp" "$work/first.o" cpu)
echo "first poc++ $opt -c in an empty cache (builds the precompiled header): $first s"
printf '%-34s %9s %9s %6s %9s %6s\n' source baseline poc++ ratio no-pch ratio
total_base=0 total_poc=0 total_nopch=0
for src in "$here/program.cpp" "$root"/examples/*/*.cpp "$root/apps/fft3d/main.cpp" \
           "$root/apps/fft3d/fft3.cpp"; do
  base= poc= nopch=
  i=0
  while [ $i -lt "$runs" ]; do
    base=$(min "$base" "$(compile_plain "$src" cpu)")
    poc=$(min "$poc" "$(compile_poc "$src" "$work/p.o" cpu)")
    nopch=$(min "$nopch" "$(compile_poc "$src" "$work/n.o" cpu env POC_PCH=0)")
    i=$((i + 1))
  done
  printf '%-34s %9s %9s %6s %9s %6s\n' "${src#$root/}" "$base" "$poc" "$(ratio "$poc" "$base")" \
    "$nopch" "$(ratio "$nopch" "$base")"
  total_base=$(awk "BEGIN { print $total_base + $base }")
  total_poc=$(awk "BEGIN { print $total_poc + $poc }")
  total_nopch=$(awk "BEGIN { print $total_nopch + $nopch }")
done
printf '%-34s %9s %9s %6s %9s %6s\n' "all (best of $runs each)" "$total_base" "$total_poc" \
  "$(ratio "$total_poc" "$total_base")" "$total_nopch" "$(ratio "$total_nopch" "$total_base")"
