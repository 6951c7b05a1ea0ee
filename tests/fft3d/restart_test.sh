#!/usr/bin/env bash
# Restart after kill -9 from persistent processes: runs an out-of-core fft3d
# job whose page servers and progress live in the object store, kills the
# whole job (mpirun and every rank, SIGKILL) at a moment the test controls,
# restarts it with --resume, KILLS times; then lets it finish. The moment:
# with --halt-after-records R (R random, 1 for the first run) each FFT
# process halts after its R-th durable record of the job; once one has said
# so, the group cannot pass that iteration's barrier, so the job cannot
# finish, and it is killed. The test never depends on the machine's speed:
# the kill always comes mid-run, the first after line R * record-every of
# the first pass.
# Checks:
#   * every restart resumes (the store's record loads), and never from an
#     earlier place than the restart before it (nothing recorded is lost);
#   * at least one restart resumed in the middle of a pass (a line > 0);
#   * the last run passes --verify (FFTW, max relative error <= 1e-10);
#   * the finished run leaves nothing in the store.
#
# usage: restart_test.sh FFT3D_EXE MPIEXEC NP KILLS [fft3d options...]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/ooc_job.sh"
exe=$1 mpiexec=$2 np=$3 kills=$4
shift 4
ooc_job restart_test "$exe" "$mpiexec" "$np" restart-test "$@"

# SIGKILL to every process of the job: mpirun was started as the leader of a
# new session (setsid), and its ranks stay in that session even though Open
# MPI gives them process groups of their own.
kill_job() {
  local pids
  pids=$(ps -o pid= -s "$1" || true)
  [[ -n $pids ]] && kill -9 $pids 2>/dev/null || true
  for ((t = 0; t < 100; t++)); do
    [[ -z $(ps -o pid= -s "$1" || true) ]] && return
    sleep 0.1
  done
  fail "processes of the killed job are still alive"
}

# "T P L1/N L2/N ...": transform, pass and each FFT process's first line
# (of the pass's N) from a log's "resuming run ... at transform T, fftP:
# FFT process 0 from line L1 of N, ..."
resumed_at() {
  sed -n 's/^fft3d: resuming run .* at transform \([0-9]*\), fft\([0-9]\):\(.*\)$/\1 \2 \3/p' "$1" |
    sed 's/ FFT process [0-9]* from line \([0-9]*\) of \([0-9]*\)/ \1\/\2/g; s/,//g'
}

# 0 if position "$1" (as resumed_at prints it) is not before "$2": the same
# or a later pass, and in the same pass no process's line goes back.
not_before() {
  local -a a=($1) b=($2)
  ((a[0] * 10 + a[1] > b[0] * 10 + b[1])) && return 0
  ((a[0] * 10 + a[1] < b[0] * 10 + b[1])) && return 1
  for ((i = 2; i < ${#a[@]}; i++)); do
    ((${a[i]%/*} >= ${b[i]%/*})) || return 1
  done
}

# Sets midpass=1 if some process of position "$1" resumes strictly inside
# its pass (0 < line < N).
note_midpass() {
  local l
  for l in $(echo "$1" | cut -d' ' -f3-); do
    ((${l%/*} > 0 && ${l%/*} < ${l#*/})) && midpass=1
  done
  return 0
}

resume=()
previous=""
midpass=0
for ((k = 1; k <= kills; k++)); do
  halt_after=$((k == 1 ? 1 : RANDOM % 60 + 1))
  setsid timeout 120 "${run[@]}" "${resume[@]}" --halt-after-records "$halt_after" \
    >"$dir/log.$k" 2>&1 &
  job=$!
  # Wait until an FFT process has halted (or the job has ended, which is a
  # failure reported below).
  while kill -0 "$job" 2>/dev/null &&
    ! grep -q "^fft3d: FFT process [0-9]* halted after record" "$dir/log.$k"; do
    sleep 0.05
  done
  kill -0 "$job" 2>/dev/null || { cat "$dir/log.$k" >&2; fail "run $k ended before it halted"; }
  kill_job "$job"
  status=0
  wait "$job" 2>/dev/null || status=$?
  if ((k > 1)); then
    position=$(resumed_at "$dir/log.$k")
    [[ -n $position ]] || { cat "$dir/log.$k" >&2; fail "run $k did not resume (status $status)"; }
    echo "run $k resumed at: $(grep '^fft3d: resuming' "$dir/log.$k")"
    [[ -z $previous ]] || not_before "$position" "$previous" ||
      fail "run $k resumed at ($position), before the previous restart ($previous)"
    previous=$position
    note_midpass "$position"
  fi
  echo "killed run $k"
  resume=(--resume)
done

timeout 300 "${run[@]}" --resume >"$dir/log.final" 2>&1 || { cat "$dir/log.final"; fail "the last run failed"; }
grep -v "iteration" "$dir/log.final"
# The last kill may have come after the last record (the run had finished
# transforming): then the last run only verifies.
if ! grep -q "^fft3d: run 'restart-test' has finished" "$dir/log.final"; then
  position=$(resumed_at "$dir/log.final")
  [[ -n $position ]] || fail "the last run did not resume"
  [[ -z $previous ]] || not_before "$position" "$previous" ||
    fail "the last run resumed at ($position), before the previous restart ($previous)"
  note_midpass "$position"
fi
((midpass)) || fail "no restart resumed in the middle of a pass (every line was 0)"
grep -q "verify .*: OK" "$dir/log.final" || fail "the result does not verify"
! grep -q "FAILED" "$dir/log.final" || fail "the result does not verify"
leftover=$(find "$POC_STORE" -name '*.pobj' 2>/dev/null || true)
[[ -z $leftover ]] || fail "the finished run left records in the store: $leftover"
echo "restart_test: PASSED"
