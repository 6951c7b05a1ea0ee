#!/usr/bin/env bash
# Restart after kill -9: runs an out-of-core fft3d job, kills the whole job
# (mpirun and every rank, SIGKILL) once it has recorded some progress, resumes
# it with --resume, and repeats; the last run must finish and pass --verify.
#
# usage: restart_test.sh FFT3D_EXE MPIEXEC NP KILLS [fft3d options...]
set -euo pipefail
exe=$1 mpiexec=$2 np=$3 kills=$4
shift 4
dir=$(mktemp -d "${TMPDIR:-/tmp}/fft3d-restart-XXXXXX")
trap 'rm -rf "$dir"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run=("$mpiexec" -n "$np" --oversubscribe --mca btl self,vader,tcp "$exe" --out-of-core "$dir" "$@")

# Iteration (in the run's order) recorded in the progress file, 0 if none.
recorded() {
  [[ -f $dir/fft3d-progress ]] || { echo 0; return; }
  awk '{ print $5 * 1000000 + $6 * 1000 + $7 }' "$dir/fft3d-progress" 2>/dev/null || echo 0
}

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
  echo "restart_test: processes of the killed job are still alive" >&2
  exit 1
}

resume=()
for ((k = 1; k <= kills; k++)); do
  before=$(recorded)
  setsid "${run[@]}" "${resume[@]}" >"$dir/log.$k" 2>&1 &
  job=$!
  # Kill once the job has recorded progress beyond where it started.
  for ((t = 0; t < 600; t++)); do
    now=$(recorded)
    if ((now > before)) || ! kill -0 "$job" 2>/dev/null; then break; fi
    sleep 0.1
  done
  sleep "0.0$((RANDOM % 10))"
  kill_job "$job"
  wait "$job" 2>/dev/null || true
  if [[ ! -f $dir/fft3d-progress ]]; then
    echo "restart_test: run $k finished before it could be killed; use more iterations" >&2
    cat "$dir/log.$k" >&2
    exit 1
  fi
  echo "killed run $k at progress $(cat "$dir/fft3d-progress")"
  resume=(--resume)
done
"${run[@]}" --resume | tee "$dir/log.final"
grep -q "resuming at" "$dir/log.final"
grep -q "verify .*: OK" "$dir/log.final"
! grep -q "FAILED" "$dir/log.final"
