#!/usr/bin/env bash
# --keep: a finished out-of-core run stays in the object store (its page
# servers and progress record); a later --resume finds it finished, verifies
# the stored result, and, without --keep, deletes it.
#
# usage: keep_test.sh FFT3D_EXE MPIEXEC NP [fft3d options...]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/ooc_job.sh"
exe=$1 mpiexec=$2 np=$3
shift 3
ooc_job keep_test "$exe" "$mpiexec" "$np" kept "$@" --verify --quiet

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
