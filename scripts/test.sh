#!/usr/bin/env bash
# README command 2: install dependencies, build, and run the whole test suite.
#   1. the normal build (warnings are errors) and every ctest test;
#   2. the runtime, serialization, persistence and stdlib tests again (unit and
#      multi-process), and bdd's, built by clang-19 under AddressSanitizer +
#      UBSan, with a short libFuzzer run of the message decoder. stdlib/array,
#      which is process-oriented C++, is translated by the normal build's
#      poc++. Suites that compile programs with poc++ are left out of this
#      build, and so are the dataflow and fft3d applications.
# Tests labelled `heavy`, the benchmarks, and the sanitizer runs of dataflow
# and fft3d are left to scripts/heavy-checks.sh, so that CI stays in its time.
# Idempotent and fast when everything is already built.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
"$root/scripts/setup-deps.sh"

# The two builds take about 4 GB: say so now rather than fail half-way.
free_kb=$(df -Pk "$root" | awk 'NR == 2 { print $4 }')
built_kb=$( (du -sk build build-asan 2>/dev/null || true) | awk '{ s += $1 } END { print s + 0 }')
if ((free_kb + built_kb < 5 * 1024 * 1024)); then
  echo "scripts/test.sh: the builds need about 5 GB of disk in $root; $((free_kb / 1024)) MB are free" >&2
  exit 1
fi

jobs=${POC_JOBS:-$(nproc)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# Open MPI removes its session folder (ompi.<host>.<uid> in the temporary
# folder) when the last job in it ends, and a job starting at that moment
# fails ("mkdir ... File exists"). One job that lives as long as the tests
# keeps the folder there.
mpirun -n 1 --oversubscribe sleep 10800 >/dev/null 2>&1 &
keeper=$!
trap 'kill "$keeper" 2>/dev/null || true' EXIT

# Line tables only (-g1): a stack printed at a time limit or by a sanitizer
# still names functions, files and lines, and the builds take about a third
# less time than with full debug information (scripts/demo.sh builds alike).
line_tables=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
             -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG")
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${line_tables[@]}" -DPOC_WERROR=ON \
      -DPOC_BUILD_BENCH=OFF >/dev/null
cmake --build build -j "$jobs"
status=0
ctest --test-dir build --output-on-failure -j "$jobs" -LE heavy || status=1

CC=clang-19 CXX=clang++-19 cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPOC_SANITIZE=ON \
      -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1 \
      -DPOC_BUILD_COMPILER=OFF -DPOC_TRANSLATOR="$root/build/compiler/poc++" -DPOC_BUILD_BENCH=OFF \
      -DPOC_APPS=bdd >/dev/null
cmake --build build-asan -j "$jobs"
ctest --test-dir build-asan --output-on-failure -j "$jobs" -LE heavy || status=1
exit $status
