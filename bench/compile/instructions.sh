#!/usr/bin/env bash
# Compile time by instructions executed (bench/RESULTS.md, "Compiler"), which
# the machine's load does not change: each file once under
#   valgrind --tool=callgrind --trace-children=yes
# compiled by `clang++-19 -c` of the plain file (its `start` keywords
# removed, `-include poc/poc.hpp`, as run.sh does) and by `poc++ -c`, whose
# processes are counted apart: poc++'s own (the translation: parse, analysis,
# generation) and its children (the compile of the translation, with the
# precompiled runtime header already in poc++'s cache, and the object's
# record).
#
#   bench/compile/instructions.sh BUILD_DIR [FILE...]
#
# FILE defaults to the files that serve many classes: bench/compile/program.cpp,
# apps/fft3d/main.cpp and apps/fft3d/fft3.cpp. The optimisation level is -O2,
# or $POC_BENCH_OPT. Prints billions of instructions.
set -euo pipefail
build=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/compile/common.sh
. "$here/common.sh"
files=("$@")
if [[ ${#files[@]} -eq 0 ]]; then
  files=("$here/program.cpp" "$root/apps/fft3d/main.cpp" "$root/apps/fft3d/fft3.cpp")
fi

# command... -> runs it under callgrind, one output file per process in $work/cg
callgrind() {
  rm -rf "$work/cg" && mkdir "$work/cg"
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$work/cg/%p" \
    "$@" >/dev/null 2>&1
}
# [pattern] -> billions of instructions of the processes whose command matches
# the pattern (every process without one)
billions() {
  for f in "$work"/cg/*; do
    if [[ -z ${1:-} ]] || grep -q "^cmd: *$1" "$f"; then
      awk '/^summary:/ { print $2 }' "$f"
    fi
  done | awk '{ s += $1 } END { printf "%.2f", s / 1e9 }'
}

# The precompiled runtime header goes into the cache first, outside the count.
compile_poc "$here/program.cpp" "$work/first.o"
printf '%-28s %8s %10s %8s %8s %6s\n' source clang++ translate compile poc++ ratio
for src in "${files[@]}"; do
  compile_plain "$src" callgrind
  base=$(billions)
  compile_poc "$src" "$work/p.o" callgrind
  all=$(billions)
  translate=$(billions "$build/compiler/poc++")
  compile=$(awk -v a="$all" -v t="$translate" 'BEGIN { printf "%.2f", a - t }')
  printf '%-28s %8s %10s %8s %8s %6.3f\n' "${src#"$root"/}" "$base" "$translate" "$compile" \
    "$all" "$(awk -v a="$all" -v b="$base" 'BEGIN { print a / b }')"
done
