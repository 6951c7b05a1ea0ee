#!/bin/bash
# Kills a job that advances a persistent tally (checkpointing every step)
# with SIGKILL at random moments, KILLS times; after each kill the stored
# state must be a completed save (it loads, its total equals its number of
# steps, and it never goes back), and finally the job runs to the end with
# total TARGET.
#   kill9.sh EXE NP TARGET KILLS MPIEXEC [MPIEXEC_FLAGS...]   (NP 0: bare)
# The store is $POC_STORE, emptied first.
set -u
exe=$1 np=$2 target=$3 kills=$4 mpiexec=$5
shift 5
flags=("$@")
[ -n "${POC_STORE:-}" ] || { echo "FAIL: POC_STORE is not set"; exit 1; }
rm -rf "$POC_STORE"
# Open MPI's session files (8 MB a job) in a directory removed at exit: a
# job killed with -9 cannot remove its own, and they would pile up in /tmp.
export OMPI_MCA_orte_tmpdir_base=$(mktemp -d)
trap 'rm -rf "$OMPI_MCA_orte_tmpdir_base"' EXIT

# The command for one job in mode "$@".
job_command() {
  if [ "$np" = 0 ]; then
    cmd=("$exe" "$@")
  else
    cmd=("$mpiexec" -n "$np" "${flags[@]}" "$exe" "$@")
  fi
}

peek() {
  job_command peek
  timeout 60 "${cmd[@]}" 2>&1 | grep -E '^(total|none)' | tail -1
}

prev=0
for i in $(seq "$kills"); do
  # In its own session (setsid execs in place: $! is the session leader),
  # so that the whole job, every rank included, can be killed at once.
  job_command work "$target"
  setsid "${cmd[@]}" > /dev/null 2>&1 &
  job=$!
  sleep "0.$(( RANDOM % 6 + 1 ))$(( RANDOM % 10 ))"
  # Every process of the session: mpirun may give the ranks their own
  # process groups, but not their own session.
  pkill -KILL -s "$job"
  wait "$job" 2> /dev/null
  while pgrep -s "$job" > /dev/null; do sleep 0.05; done
  state=$(peek)
  echo "kill $i: $state"
  if [ "$state" = none ]; then
    [ "$prev" = 0 ] || { echo "FAIL: the tally disappeared after kill $i"; exit 1; }
    continue
  fi
  read -r _ total _ steps <<< "$state"
  [ -n "${total:-}" ] || { echo "FAIL: no readable state after kill $i: $state"; exit 1; }
  [ "$total" = "$steps" ] || { echo "FAIL: torn state after kill $i: $state"; exit 1; }
  [ "$total" -ge "$prev" ] || { echo "FAIL: state went back from $prev after kill $i: $state"; exit 1; }
  prev=$total
done
job_command work "$target"
final=$(timeout 300 "${cmd[@]}" 2>&1 | grep '^total' | tail -1)
echo "final: $final"
[ "$final" = "total $target steps $target" ] || { echo "FAIL: final state '$final'"; exit 1; }
echo "PASSED"
