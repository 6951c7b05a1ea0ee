#!/usr/bin/env bash
# Plain C++ through poc++ (issue 23 part 4): `poc++ -c` against `clang++ -c`
# on files with no process operation, run alternately in the same run.
#
#   bench/compile/plain.sh BUILD_DIR [REPEATS]
#   POC_BENCH_MEASURE=instructions bench/compile/plain.sh BUILD_DIR
#
# Prints, per file, the best wall time of each over REPEATS runs and the
# ratio; the goal is <= 1.1. With POC_BENCH_MEASURE=instructions it runs
# each compile once under callgrind and prints the instructions executed
# (every child process included), which the machine's load does not change.
set -euo pipefail
build=$(cd "$1" && pwd)
repeats=${2:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
pocxx=$build/compiler/poc++
clangxx=/usr/lib/llvm-19/bin/clang++
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpi=$(mpicxx --showme:compile)

# Real plain files of the project, with the flags CMake gives them.
cases=(
  "apps/bdd/core/src/model.cpp|-std=c++20 -I$root/apps/bdd/core/include $mpi"
  "apps/bdd/core/src/reachability.cpp|-std=c++20 -I$root/apps/bdd/core/include $mpi"
  "apps/bdd/core/src/run_reach.cpp|-std=c++20 -I$root/apps/bdd/core/include $mpi"
  "tests/separate/project/audit.cpp|"
)

instructions() { # command... -> instructions executed, in millions
  rm -f "$work"/cg.*
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$work/cg.%p" \
    "$@" >/dev/null 2>&1 || return 1
  cat "$work"/cg.* | awk '/^summary:/ { s += $2 } END { printf "%.0f\n", s / 1e6 }'
}

best() { # command... -> best wall seconds over $repeats runs
  local b=
  for _ in $(seq "$repeats"); do
    local s e
    s=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || return 1
    e=$(date +%s.%N)
    b=$(echo "$s $e ${b:-1e9}" | awk '{t = $2 - $1; print (t < $3 ? t : $3)}')
  done
  echo "$b"
}

measure=best
if [[ ${POC_BENCH_MEASURE:-seconds} == instructions ]]; then
  measure=instructions
  echo "(millions of instructions executed)"
fi
printf '%-45s %6s %10s %10s %6s\n' file opt clang++ poc++ ratio
for case in "${cases[@]}"; do
  file=${case%%|*}
  flags=${case#*|}
  for opt in -O0 -O2; do
    # shellcheck disable=SC2086 # $flags is a list of flags
    "$clangxx" $opt $flags -c "$root/$file" -o "$work/warm.o" # warm the file cache
    # shellcheck disable=SC2086
    c=$($measure "$clangxx" $opt $flags -c "$root/$file" -o "$work/c.o")
    # shellcheck disable=SC2086
    p=$($measure "$pocxx" $opt $flags -c "$root/$file" -o "$work/p.o")
    if llvm-readelf-19 -p .poc.object "$work/p.o" 2>/dev/null | grep -q '"translated":true'; then
      echo "error: $file was translated, not compiled as plain C++" >&2
      exit 1
    fi
    printf '%-45s %6s %10.3f %10.3f %6.2f\n' "$file" "$opt" "$c" "$p" "$(echo "$p $c" | awk '{print $1 / $2}')"
  done
done
