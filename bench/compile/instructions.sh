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
root=$(cd "$here/../.." && pwd)
opt=${POC_BENCH_OPT:--O2}
files=("$@")
if [[ ${#files[@]} -eq 0 ]]; then
  files=("$here/program.cpp" "$root/apps/fft3d/main.cpp" "$root/apps/fft3d/fft3.cpp")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export POC_PCH_CACHE="$work/pch-cache"
mpi=$(mpicxx --showme:compile)
includes="-I$root/apps/fft3d/core/include -I$root/stdlib/array/include -I$root/stdlib/pagedevice/include"

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
# shellcheck disable=SC2086 # $includes is a list of flags
"$build/compiler/poc++" "$opt" $includes -c "$here/program.cpp" -o "$work/first.o"
printf '%-28s %8s %10s %8s %8s %6s\n' source clang++ translate compile poc++ ratio
for src in "${files[@]}"; do
  sed -E 's/(^[[:space:]]*|=[[:space:]]*)start /\1/' "$src" > "$work/plain.cpp"
  # shellcheck disable=SC2086
  callgrind clang++-19 -std=c++20 "$opt" -isystem "$root/runtime/include" $mpi $includes \
    -iquote "$(dirname "$src")" -include poc/poc.hpp -c "$work/plain.cpp" -o "$work/plain.o"
  base=$(billions)
  # shellcheck disable=SC2086
  callgrind "$build/compiler/poc++" "$opt" $includes -c "$src" -o "$work/p.o"
  all=$(billions)
  translate=$(billions "$build/compiler/poc++")
  compile=$(awk -v a="$all" -v t="$translate" 'BEGIN { printf "%.2f", a - t }')
  printf '%-28s %8s %10s %8s %8s %6.3f\n' "${src#"$root"/}" "$base" "$translate" "$compile" \
    "$all" "$(awk -v a="$all" -v b="$base" 'BEGIN { print a / b }')"
done
