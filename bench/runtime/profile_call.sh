#!/bin/sh
# One sync `int -> int` call, step by step: runs `runtime_bench --calls N`
# on 2 ranks with a runtime built with -DPOC_CALL_PROBES=ON (time stamps at
# each step, runtime/src/transport/call_probes.hpp) and prints the median
# of every step in ns (call_steps.py). The plain round trips for the ratios
# come from bench/runtime/run.sh (an ordinary build: the probes cost time).
#   cmake -S . -B build-probes -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOC_CALL_PROBES=ON
#   ninja -C build-probes runtime_bench
#   bench/runtime/profile_call.sh [build-probes] [calls] [--in-place]
# (--in-place: calls of a POC_NONBLOCKING method, which run where they arrive)
set -eu
BUILD=${1:-$(dirname "$0")/../../build-probes}
CALLS=${2:-200000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mpirun --oversubscribe --mca btl self,vader,tcp --timeout 300 -x POC_PROBES_OUT="$out/stamps" \
  -n 2 "$BUILD/bench/runtime/runtime_bench" --calls "$CALLS" ${3:-}
python3 "$(dirname "$0")/call_steps.py" "$out/stamps"
