#!/usr/bin/env bash
# Recovery from the death of a machine (docs/dataflow.md, "Failures"):
# dataflow-recover runs LCS (a task graph, a wavefront), integrate's
# fork-join (a task graph with a join) and kmeans (a stream graph with a
# feedback loop) on NP machines, and one machine dies by SIGKILL at a
# random moment; each run must print exactly what a run without the failure
# prints, and exit with status 0.
#
# The moment never depends on the machine's speed: the test asks the
# library (POC_DATAFLOW_KILL) to kill machine M before its C-th job, C drawn
# from the jobs M runs in a run without failure (counted by --stats), so
# kills land early, mid-run and late whatever the machine. Further cases: a
# death in the middle of a checkpoint write, a death during the re-deploy
# (two failures in one run), past the limit of --failures, no machine left,
# a failure of the program's own (not retried), a checkpoint that does not
# verify. After each run: nothing left behind (the launch's checkpoint
# directory, Open MPI's session folders).
#
# usage: recovery_test.sh LAUNCHER BINDIR DATADIR MPIEXEC NP KILLS [SEED] [-- MPI FLAGS...]
# (SEED "" or absent: a random one, printed; RECOVERY_CASES=0: kills only.)
set -uo pipefail
launcher=$1 bin=$2 data=$3 mpiexec=$4 np=$5 kills=$6
seed=${7:-$((RANDOM * 32768 + RANDOM))}
shift 6
(($#)) && shift
[[ ${1-} == -- ]] && shift
mpi_flags=("$@")
RANDOM=$seed
echo "recovery_test: seed $seed, $np machines, $kills random kills"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Open MPI's session folders go to TMPDIR: a folder of the test's own, so
# that one left behind is seen.
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR" "$work/checkpoints"
fail() {
  echo "recovery_test: FAILED (seed $seed): $*" >&2
  exit 1
}

launcher_flags=(--mpirun "$mpiexec" --checkpoint "$work/checkpoints")
for f in "${mpi_flags[@]}" --timeout 120; do
  launcher_flags+=(--mpirun-flag "$f")
done

# name | program and arguments | share of a machine's jobs a kill may come
# before, in percent (a stream graph's jobs are batches of data, so their
# number varies between runs: only its first half is sure to happen)
programs=(
  "lcs|dataflow-lcs --block 100 $data/a.txt $data/b.txt|100"
  "integrate|dataflow-integrate --chunks 64 --points 1000000|100"
  "kmeans|dataflow-kmeans --points 20000|50")
declare -A command expected jobs reach
for row in "${programs[@]}"; do
  IFS='|' read -r name cmd share <<<"$row"
  command[$name]="$bin/${cmd}"
  reach[$name]=$share
  # The jobs each machine runs depend on the workers per machine (the
  # placement counts them), so a kill's job is chosen among those of a run
  # with as many workers as the killed run has.
  for workers in 1 2; do
    # shellcheck disable=SC2086
    timeout 150 "$mpiexec" -n "$np" "${mpi_flags[@]}" ${command[$name]} --workers "$workers" \
      --stats >"$work/$name.out" 2>"$work/$name.err" ||
      { cat "$work/$name.err"; fail "$name did not run"; }
    if [[ $workers == 1 ]]; then
      expected[$name]=$(cat "$work/$name.out")
    elif [[ $(cat "$work/$name.out") != "${expected[$name]}" ]]; then
      fail "$name: 2 workers per machine give another result than 1"
    fi
    jobs[$name,$workers]=$(sed -n 's/^dataflow: machine \([0-9]*\): jobs \([0-9]*\) .*/\2/p' \
      "$work/$name.err" | tr '\n' ' ')
  done
  echo "$name: $(head -1 "$work/$name.out"); jobs per machine: ${jobs[$name,1]}(1 worker)," \
    "${jobs[$name,2]}(2 workers)"
done

# Checks that nothing of a launch is left.
check_clean() {
  local left
  left=$(find "$work/checkpoints" "$TMPDIR" -mindepth 1 -maxdepth 1 2>/dev/null)
  [[ -z $left ]] || fail "$1 left behind: $left"
}

# recover NAME EXPECTED_STATUS KILLS [launcher options] [-- program options]:
# runs program NAME (stdout to $work/out, stderr to $work/err) with
# POC_DATAFLOW_KILL=KILLS.
recover() {
  local name=$1 want=$2 kill_list=$3 status=0
  shift 3
  local -a options=() extra=()
  while (($#)) && [[ $1 != -- ]]; do
    options+=("$1")
    shift
  done
  (($#)) && shift && extra=("$@")
  # shellcheck disable=SC2086
  POC_DATAFLOW_KILL=$kill_list timeout 300 "$launcher" "${launcher_flags[@]}" "${options[@]}" \
    -n "$np" ${command[$name]} "${extra[@]}" >"$work/out" 2>"$work/err" || status=$?
  if ((status != want)); then
    cat "$work/err" >&2
    fail "$name with kills $kill_list $*: status $status, expected $want"
  fi
  check_clean "$name with kills $kill_list"
}

# A random job of machine $2 of program $1 with $3 workers per machine (1
# if not given), within its reach.
random_job() {
  local -a per_machine
  read -r -a per_machine <<<"${jobs[$1,${3:-1}]}"
  local n=$((per_machine[$2] * reach[$1] / 100))
  echo $((RANDOM % (n > 0 ? n : 1) + 1))
}

expect_recovered() {
  [[ $(cat "$work/out") == "${expected[$1]}" ]] ||
    { diff <(echo "${expected[$1]}") "$work/out"; fail "$1: the result differs ($2)"; }
  grep -q "dataflow: test kill: machine" "$work/err" || fail "$1: no machine died ($2)"
  grep -q "^dataflow-recover: machine [0-9]* died (signal 9, Killed) .*re-deploying" \
    "$work/err" || { cat "$work/err"; fail "$1: no re-deploy was reported ($2)"; }
}

names=(lcs integrate kmeans)
for ((k = 0; k < kills; k++)); do
  name=${names[k % 3]}
  machine=$((RANDOM % np))
  workers=$((RANDOM % 2 + 1))
  job=$(random_job "$name" "$machine" "$workers")
  recover "$name" 0 "1:$machine:job:$job" --interval 0.01 -- --workers "$workers" --stats
  expect_recovered "$name" "machine $machine before job $job, $workers workers"
  echo "kill $((k + 1)): $name, machine $machine before its job $job, $workers workers:" \
    "$(grep -o "the checkpoint held [0-9]* instances; [0-9]* jobs took .*" "$work/err")"
done

# RECOVERY_CASES=0 (the storm): the random kills only.
if [[ ${RECOVERY_CASES-1} == 0 ]]; then
  echo "recovery_test: PASSED"
  exit 0
fi

# A death in the middle of a checkpoint write (one after every job): the
# record being written is absent, the earlier ones are used.
machine=$((RANDOM % np))
write=$(random_job lcs "$machine")
recover lcs 0 "1:$machine:checkpoint:$write" --interval 0 -- --workers 1
expect_recovered lcs "machine $machine in checkpoint write $write"
grep -q "dies while writing its checkpoint $write" "$work/err" || fail "no death in a checkpoint write"
echo "death in checkpoint write $write of machine $machine: recovered"

# A death during the re-deploy itself: two failures in one run.
first=$((RANDOM % np)) second=$((RANDOM % (np - 1)))
recover lcs 0 "1:$first:job:$(random_job lcs "$first"),2:$second:restore:1" --failures 2 \
  -- --workers 1
expect_recovered lcs "a death during the re-deploy"
grep -q "dies while the re-deploy is prepared in deployment 2" "$work/err" ||
  fail "no death during the re-deploy"
grep -q "completed after 2 failures" "$work/err" || fail "two failures were not reported"
echo "death during the re-deploy: recovered"

# The same, with a limit of one failure: a clear error, status 3.
recover lcs 3 "1:$first:job:$(random_job lcs "$first"),2:$second:restore:1" --failures 1 \
  -- --workers 1
grep -q "^dataflow-recover: machine $second died .* failure 2 is past the limit of 1" "$work/err" ||
  { cat "$work/err"; fail "no error past the limit"; }
[[ ! -s $work/out ]] || fail "a result past the limit"
echo "past the limit: refused"

# With --replace a dead machine's place is taken: the re-deploy has NP.
recover integrate 0 "1:$machine:job:1" --replace -- --stats
expect_recovered integrate "--replace"
grep -q "re-deploying on $np machines" "$work/err" || fail "--replace re-deployed on fewer machines"
grep -q "^dataflow: $np machines" "$work/err" || fail "--replace: the re-deploy had not $np machines"
echo "--replace: recovered on $np machines"

# No machine left: every machine dies, one per deployment.
list=""
for ((a = 1; a <= np; a++)); do
  list+="${list:+,}$a:0:job:1"
done
recover integrate 3 "$list" --failures "$np"
grep -q "no machine is left to re-deploy on" "$work/err" || { cat "$work/err"; fail "no machine left"; }
echo "no machine left: refused"

# A failure of the program's own is reported by it and not retried.
command[lcs_missing]="$bin/dataflow-lcs $data/a.txt $work/no-such-file"
recover lcs_missing 1 ""
grep -q "dataflow-lcs: cannot read .*no-such-file" "$work/err" || fail "the program's error is missing"
! grep -q "re-deploying" "$work/err" || fail "the program's own failure was retried"
echo "the program's own failure: not retried"

# A checkpoint that does not verify stops the re-deploy with a clear error:
# a deployment killed after some checkpoints, one record damaged, then the
# next deployment as the launcher would start it.
store=$work/store
machine=$((np - 1))
# shellcheck disable=SC2086
POC_DATAFLOW_CHECKPOINT=$store POC_DATAFLOW_CHECKPOINT_INTERVAL=0 POC_DATAFLOW_ATTEMPT=1 \
  POC_DATAFLOW_KILL="1:$machine:job:$(random_job lcs "$machine")" \
  timeout 150 "$mpiexec" -n "$np" "${mpi_flags[@]}" ${command[lcs]} --workers 1 >/dev/null 2>&1
record=$(find "$store" -name '*.pobj' | head -1)
[[ -n $record ]] || fail "the killed deployment wrote no checkpoint"
printf '\xff' | dd of="$record" bs=1 seek=60 conv=notrunc status=none
status=0
# shellcheck disable=SC2086
POC_DATAFLOW_CHECKPOINT=$store POC_DATAFLOW_ATTEMPT=2 \
  timeout 150 "$mpiexec" -n "$np" "${mpi_flags[@]}" ${command[lcs]} >"$work/out" 2>"$work/err" ||
  status=$?
((status == 1)) || { cat "$work/err"; fail "a damaged checkpoint: status $status, expected 1"; }
grep -q "^dataflow-lcs: the checkpoint in $store does not verify: " "$work/err" ||
  { cat "$work/err"; fail "a damaged checkpoint was not reported"; }
[[ ! -s $work/out ]] || fail "a result from a damaged checkpoint"
echo "damaged checkpoint: refused"

echo "recovery_test: PASSED"
