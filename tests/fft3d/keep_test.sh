#!/usr/bin/env bash
# --keep: a finished out-of-core run stays in the object store (its page
# servers and progress record); a later --resume finds it finished, verifies
# the stored result, and, without --keep, deletes it.
#
# usage: keep_test.sh FFT3D_EXE MPIEXEC NP [fft3d options...]
set -euo pipefail
exe=$1 mpiexec=$2 np=$3
shift 3
dir=$(mktemp -d "${TMPDIR:-/tmp}/fft3d-keep-XXXXXX")
trap 'rm -rf "$dir"' EXIT
export POC_STORE=$dir/store
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run=("$mpiexec" -n "$np" --oversubscribe --mca btl self,vader,tcp "$exe"
     --out-of-core "$dir" --run kept "$@" --verify --quiet)

fail() {
  echo "keep_test: FAIL: $*" >&2
  exit 1
}

timeout 120 "${run[@]}" --keep | tee "$dir/log.1"
grep -q "verify .*: OK" "$dir/log.1" || fail "the first run does not verify"
[[ -f $POC_STORE/kept/progress.pobj && -f $POC_STORE/kept/PageDevice/0.pobj ]] ||
  fail "--keep left no progress record or page server in the store"

timeout 120 "${run[@]}" --resume | tee "$dir/log.2"
grep -q "run 'kept' has finished" "$dir/log.2" || fail "the kept run was not found finished"
grep -q "verify .*: OK" "$dir/log.2" || fail "the kept result does not verify"
leftover=$(find "$POC_STORE" -name '*.pobj')
[[ -z $leftover ]] || fail "the run was not deleted: $leftover"
echo "keep_test: PASSED"
