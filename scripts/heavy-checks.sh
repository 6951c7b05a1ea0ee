#!/usr/bin/env bash
# The checks CI leaves out to stay in its time (docs/architecture.md,
# "Building and testing"), run before an issue is resolved:
#   1. the normal build's tests labelled `heavy` (the long mutation fuzz, the
#      largest BDD models), with the benchmarks built;
#   2. a sanitizer build with every application (build-asan-all): all its
#      tests, heavy ones included (dataflow, fft3d's libraries and bdd's
#      larger cases under AddressSanitizer + UBSan);
#   3. under ThreadSanitizer (build-tsan): the runtime's tests, bdd's
#      threaded runs and dataflow's recovery (its checkpoint writer thread).
# Usage: scripts/heavy-checks.sh [--repeat N]   (each test until it fails,
# at most N times). Expects README command 2 to have built `build`.
# Prints one line per step and exits non-zero if any step failed.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2
repeat=()
if [[ ${1:-} == --repeat ]]; then
  [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "heavy-checks.sh: --repeat needs a count" >&2; exit 2; }
  repeat=(--repeat "until-fail:$2")
elif [[ $# -gt 0 ]]; then
  echo "heavy-checks.sh: unknown argument '$1' (usage: heavy-checks.sh [--repeat N])" >&2
  exit 2
fi
[[ -x build/compiler/poc++ ]] || { echo "heavy-checks.sh: run scripts/test.sh first" >&2; exit 2; }
jobs=${POC_JOBS:-$(nproc)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun -n 1 --oversubscribe sleep 43200 >/dev/null 2>&1 & # keeps Open MPI's session folder
keeper=$!
trap 'kill "$keeper" 2>/dev/null || true' EXIT

status=0
# step NAME COMMAND...: runs the command, logs it to build/heavy-NAME.log, says how it went.
step() {
  local name=$1
  shift
  if "$@" >"build/heavy-$name.log" 2>&1; then
    echo "heavy-checks: $name: passed ($(grep -E 'tests passed' "build/heavy-$name.log" | tail -1))"
  else
    echo "heavy-checks: $name: FAILED (build/heavy-$name.log)"
    status=1
  fi
}
sanitizer_build() { # DIR FLAGS...
  local dir=$1
  shift
  CC=clang-19 CXX=clang++-19 cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DPOC_BUILD_COMPILER=OFF -DPOC_TRANSLATOR="$root/build/compiler/poc++" \
    -DPOC_BUILD_BENCH=OFF "$@" >/dev/null && cmake --build "$dir" -j "$jobs"
}

step normal-heavy bash -c "cmake -S . -B build -DPOC_BUILD_BENCH=ON >/dev/null &&
  cmake --build build -j $jobs && ctest --test-dir build -L heavy -j $jobs ${repeat[*]}"
step asan-all bash -c "$(declare -f sanitizer_build); root='$root' jobs=$jobs
  sanitizer_build build-asan-all -DPOC_SANITIZE=ON &&
  ctest --test-dir build-asan-all -j $jobs ${repeat[*]}"
step tsan-runtime bash -c "$(declare -f sanitizer_build); root='$root' jobs=$jobs
  sanitizer_build build-tsan -DPOC_SANITIZE_THREAD=ON '-DPOC_APPS=bdd;dataflow' &&
  ctest --test-dir build-tsan -R '^(runtime_|trace\.|bdd_reach_threads|dataflow_recovery_np3)' \
    -E 'spawn|persist|memory_reuse_kept' -j $jobs ${repeat[*]}"
exit $status
