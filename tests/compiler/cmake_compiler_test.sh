#!/usr/bin/env bash
# CMAKE_CXX_COMPILER=poc++ works like any compiler with both the Ninja and the
# Makefile generators: the project builds and runs, the build system records
# the header the source includes, and editing that header rebuilds the
# program with the new value.
#   cmake_compiler_test.sh POCXX PROJECT_DIR
set -euo pipefail
pocxx=$1 project=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/poc-cmake-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "cmake_compiler_test: FAIL: $*" >&2; exit 1; }

for generator in Ninja "Unix Makefiles"; do
  src=$work/src-${generator// /-} build=$work/build-${generator// /-}
  cp -r "$project" "$src"
  cmake -S "$src" -B "$build" -G "$generator" -DCMAKE_CXX_COMPILER="$pocxx" >/dev/null ||
    fail "$generator: configuring with poc++ failed"
  cmake --build "$build" >/dev/null || fail "$generator: the first build failed"
  [[ $("$build/app") == "count 42" ]] || fail "$generator: the program printed '$("$build/app")'"
  if [[ $generator == Ninja ]]; then
    # Captured first: grep -q would stop reading early, and with pipefail
    # ninja's SIGPIPE would fail the pipeline.
    deps=$(ninja -C "$build" -t deps)
    grep -q "counter.hpp" <<<"$deps" || fail "Ninja records no dependency on counter.hpp: $deps"
  fi
  sed -i 's/#define COUNTER_START 40/#define COUNTER_START 50/' "$src/counter.hpp"
  cmake --build "$build" >/dev/null || fail "$generator: the rebuild failed"
  [[ $("$build/app") == "count 52" ]] ||
    fail "$generator: editing counter.hpp did not rebuild (the program printed '$("$build/app")')"
  echo "$generator: builds, records counter.hpp, rebuilds after editing it"
done
echo "cmake_compiler_test: PASSED"
