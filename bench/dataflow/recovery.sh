#!/usr/bin/env bash
# bench/dataflow/recovery.sh BUILD [NP] [SIZE] [BLOCK]: the cost of surviving
# a machine's death (bench/RESULTS.md, "Dataflow: recovery"), on LCS of two
# random SIZE-letter sequences (default 150,000: a run of 20 s or more on
# the 2-core machine) on NP machines (default 3), each figure against a run
# without failure measured in the same invocation:
#  1. plain `mpirun` (the baseline);
#  2. under dataflow-recover, no failure: the cost of checkpoints (goal <= 5%);
#  3. under dataflow-recover, machine 1 killed (SIGKILL) before half of its
#     jobs: the overhead of one recovery (goal <= 10%), and the time from
#     the death to the re-deployed graph running again (goal <= 3 s);
#  4. the same kill with the checkpoints off (--interval larger than the
#     run): what the re-deploy costs when it must run everything again.
# Prints each time, the ratios, the load, and checks every answer.
set -euo pipefail
build=${1:?usage: recovery.sh BUILD [NP] [SIZE] [BLOCK]}
np=${2:-3} size=${3:-150000} block=${4:-2048}
apps=$build/apps/dataflow
mpiexec=${MPIEXEC:-mpirun}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -c "
import random
for name, seed in (('a', 21), ('b', 22)):
    random.seed(seed)
    open('$work/' + name + '.txt', 'w').write(''.join(random.choice('ACGT') for _ in range($size)) + '\n')"
lcs=("$apps/dataflow-lcs" --block "$block" "$work/a.txt" "$work/b.txt")
launcher=("$apps/dataflow-recover" --mpirun "$mpiexec" --mpirun-flag --oversubscribe
  --checkpoint "$work" -n "$np")
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc); LCS ${size}^2, block $block, -n $np"

# timed NAME CMD...: runs CMD, stdout to $work/NAME.out, stderr to
# $work/NAME.err, and prints its wall time in seconds.
timed() {
  local name=$1
  shift
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >"$work/$name.out" 2>"$work/$name.err" || { cat "$work/$name.err" >&2; exit 1; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

plain=$(timed plain "$mpiexec" --oversubscribe -n "$np" "${lcs[@]}" --stats)
answer=$(cat "$work/plain.out")
jobs=$(sed -n 's/^dataflow: machine 1: jobs \([0-9]*\) .*/\1/p' "$work/plain.err")
echo "1. plain mpirun: $plain s ($answer; machine 1 ran $jobs jobs)"

ckpt=$(timed ckpt "${launcher[@]}" --interval 1 "${lcs[@]}" --stats)
[[ $(cat "$work/ckpt.out") == "$answer" ]] || { echo "checkpointed run disagrees"; exit 1; }
echo "2. checkpoints every 1 s, no failure: $ckpt s, $(ratio "$ckpt" "$plain")x plain;" \
  "$(grep -o 'checkpoints: .*' "$work/ckpt.err")"

kill_at=$((jobs / 2))
killed=$(POC_DATAFLOW_KILL="1:1:job:$kill_at" timed killed "${launcher[@]}" --interval 1 \
  "${lcs[@]}" --stats)
[[ $(cat "$work/killed.out") == "$answer" ]] || { echo "recovered run disagrees"; exit 1; }
died=$(sed -n 's/^dataflow: test kill: .* at \([0-9.]*\)$/\1/p' "$work/killed.err")
began=$(sed -n 's/^dataflow: re-deploy .* began at \([0-9.]*\).*/\1/p' "$work/killed.err")
echo "3. machine 1 killed before its job $kill_at of $jobs: $killed s, $(ratio "$killed" "$plain")x" \
  "plain, $(ratio "$killed" "$ckpt")x the checkpointed run without failure; death to running" \
  "again: $(awk -v a="$died" -v b="$began" 'BEGIN { printf "%.2f", b - a }') s"
grep "^dataflow-recover:\|re-deploy after" "$work/killed.err" | sed 's/^/   /'

none=$(POC_DATAFLOW_KILL="1:1:job:$kill_at" timed none "${launcher[@]}" --interval 100000 \
  "${lcs[@]}" --stats)
[[ $(cat "$work/none.out") == "$answer" ]] || { echo "re-run disagrees"; exit 1; }
echo "4. the same kill without checkpoints: $none s, $(ratio "$none" "$plain")x plain"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
