#!/bin/sh
# Runs every runtime benchmark (the round trip over shared memory and again
# over Open MPI's TCP transport, standing in for a network, so with the
# runtime's same-node rings turned off (POC_SHM_RINGS=0); the 4 KiB and
# 512 KiB page reads of bench/pagedevice) and prints one table (median of 7
# runs each; ratio = poc++ / baseline measured in the same job), then the
# raw MPI round trip under each thread level (mpi-thread-levels).
#   bench/runtime/run.sh [build-dir]
set -eu
BUILD=${1:-$(dirname "$0")/../../build}
BENCH=$BUILD/bench/runtime/runtime_bench
GRPC=$BUILD/bench/runtime/runtime_grpc_bench
PAGE=$BUILD/bench/pagedevice/page_read_bench
LEVELS=$BUILD/bench/runtime/mpi-thread-levels
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN="mpirun --oversubscribe --mca btl self,vader,tcp --timeout 300"
MPIRUN_TCP="mpirun --oversubscribe --mca btl self,tcp --timeout 300"

out=$( { $MPIRUN -n 2 "$BENCH"; $MPIRUN -n 8 "$BENCH" --idle 6;
         POC_SHM_RINGS=0 $MPIRUN_TCP -n 2 "$BENCH" --round-trip-only | sed 's/^RESULT|/RESULT|over TCP: /';
         if [ -x "$GRPC" ]; then $MPIRUN -n 2 "$GRPC"; fi;
         if [ -x "$PAGE" ]; then $MPIRUN -n 2 "$PAGE"; $MPIRUN -n 2 "$PAGE" 2000 512; fi; } 2>&1 )
echo "$out" | grep -v '^RESULT|' >&2 || true
printf '%-50s %14s %14s %8s\n' "benchmark" "poc++" "baseline" "ratio"
echo "$out" | grep '^RESULT|' | while IFS='|' read -r _ name poc base unit ratio; do
  printf '%-50s %14s %14s %8s\n' "$name" "$poc" "$base" "$ratio"
done

# Raw MPI below the runtime: an 8-byte round trip per thread level and way
# of receiving (blocking, posted ahead and tested, matched probe).
if [ -x "$LEVELS" ]; then
  echo
  for level in single serialized multiple; do $MPIRUN -n 2 "$LEVELS" $level; done
fi
