#!/usr/bin/env bash
# README command 2: install dependencies, build, and run the whole test suite.
#   1. the normal build (warnings are errors) and every ctest test;
#   2. the runtime, serialization, persistence and stdlib tests again (unit and
#      multi-process), built by clang-19 under AddressSanitizer + UBSan, with a
#      short libFuzzer run of the message decoder. stdlib/array, which is
#      process-oriented C++, is translated by the normal build's poc++. Suites
#      that compile programs with poc++ are left out of this build.
# Idempotent and fast when everything is already built.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
"$root/scripts/setup-deps.sh"

jobs=${POC_JOBS:-$(nproc)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOC_WERROR=ON >/dev/null
cmake --build build -j "$jobs"
status=0
ctest --test-dir build --output-on-failure -j "$jobs" || status=1

CC=clang-19 CXX=clang++-19 cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPOC_SANITIZE=ON \
      -DPOC_BUILD_COMPILER=OFF -DPOC_TRANSLATOR="$root/build/compiler/poc++" -DPOC_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j "$jobs"
ctest --test-dir build-asan --output-on-failure -j "$jobs" || status=1
exit $status
