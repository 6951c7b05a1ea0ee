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
# ROUNDS (default 2): pairs of runs 1 and 2. BEFORE=BUILD2: each round also
# runs 2 with BUILD2's programs (another version, say the one before a
# change), so both versions' checkpoints are measured in the same minutes.
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
launcher_flags=(--mpirun "$mpiexec" --mpirun-flag --oversubscribe --checkpoint "$work" -n "$np")
launcher=("$apps/dataflow-recover" "${launcher_flags[@]}")
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc); LCS ${size}^2, block $block, -n $np"

# timed NAME CMD...: runs CMD, stdout to $work/NAME.out, stderr to
# $work/NAME.err, and prints its wall time in seconds; its CPU seconds (user
# and system, of every process of the job), which a busy machine disturbs
# less, go to $work/NAME.cpu.
timed() {
  local name=$1
  shift
  /usr/bin/time -f "%e %U %S" -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" ||
    { cat "$work/$name.err" >&2; exit 1; }
  awk '{ printf "%.2f", $2 + $3 }' "$work/$name.time" >"$work/$name.cpu"
  awk '{ printf "%.2f", $1 }' "$work/$name.time"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

# Plain and checkpointed runs alternate, ROUNDS pairs (default 2), so that a
# change in the machine's load falls on both alike.
rounds=${ROUNDS:-2}
plains=() ckpts=() plain_cpus=() ckpt_cpus=() befores=() before_cpus=()
for ((r = 1; r <= rounds; r++)); do
  plains+=("$(timed plain "$mpiexec" --oversubscribe -n "$np" "${lcs[@]}" --stats)")
  plain_cpus+=("$(cat "$work/plain.cpu")")
  answer=$(cat "$work/plain.out")
  ckpts+=("$(timed ckpt "${launcher[@]}" --interval 1 "${lcs[@]}" --stats)")
  ckpt_cpus+=("$(cat "$work/ckpt.cpu")")
  [[ $(cat "$work/ckpt.out") == "$answer" ]] || { echo "checkpointed run disagrees"; exit 1; }
  echo "round $r: plain mpirun ${plains[-1]} s (CPU ${plain_cpus[-1]} s); checkpoints every 1 s," \
    "no failure: ${ckpts[-1]} s (CPU ${ckpt_cpus[-1]} s), $(ratio "${ckpts[-1]}" "${plains[-1]}")x" \
    "(CPU $(ratio "${ckpt_cpus[-1]}" "${plain_cpus[-1]}")x); $(grep -o 'checkpoints: .*' "$work/ckpt.err")"
  if [[ -n ${BEFORE-} ]]; then
    befores+=("$(timed before "$BEFORE/apps/dataflow/dataflow-recover" "${launcher_flags[@]}" \
      --interval 1 "$BEFORE/apps/dataflow/dataflow-lcs" "${lcs[@]:1}" --stats)")
    before_cpus+=("$(cat "$work/before.cpu")")
    [[ $(cat "$work/before.out") == "$answer" ]] || { echo "BEFORE's run disagrees"; exit 1; }
    echo "round $r: BEFORE's checkpoints every 1 s: ${befores[-1]} s (CPU ${before_cpus[-1]} s)," \
      "$(ratio "${befores[-1]}" "${plains[-1]}")x (CPU $(ratio "${before_cpus[-1]}" "${plain_cpus[-1]}")x)"
  fi
done
mean() { printf '%s\n' "$@" | awk '{ s += $1 } END { printf "%.2f", s / NR }'; }
plain=$(mean "${plains[@]}") ckpt=$(mean "${ckpts[@]}")
plain_cpu=$(mean "${plain_cpus[@]}") ckpt_cpu=$(mean "${ckpt_cpus[@]}")
jobs=$(sed -n 's/^dataflow: machine 1: jobs \([0-9]*\) .*/\1/p' "$work/plain.err")
echo "1. plain mpirun: $plain s on average, CPU $plain_cpu s ($answer; machine 1 ran $jobs jobs)"
echo "2. checkpoints every 1 s, no failure: $ckpt s on average, $(ratio "$ckpt" "$plain")x plain;" \
  "CPU $ckpt_cpu s, $(ratio "$ckpt_cpu" "$plain_cpu")x"
if [[ -n ${BEFORE-} ]]; then
  before=$(mean "${befores[@]}") before_cpu=$(mean "${before_cpus[@]}")
  echo "2'. BEFORE's checkpoints every 1 s: $before s on average, $(ratio "$before" "$plain")x plain;" \
    "CPU $before_cpu s, $(ratio "$before_cpu" "$plain_cpu")x"
fi

kill_at=$((jobs / 2))
killed=$(POC_DATAFLOW_KILL="1:1:job:$kill_at" timed killed "${launcher[@]}" --interval 1 \
  "${lcs[@]}" --stats)
[[ $(cat "$work/killed.out") == "$answer" ]] || { echo "recovered run disagrees"; exit 1; }
died=$(sed -n 's/^dataflow: test kill: .* at \([0-9.]*\)$/\1/p' "$work/killed.err")
began=$(sed -n 's/^dataflow: re-deploy .* began at \([0-9.]*\).*/\1/p' "$work/killed.err")
echo "3. machine 1 killed before its job $kill_at of $jobs: $killed s, $(ratio "$killed" "$plain")x" \
  "plain, $(ratio "$killed" "$ckpt")x the checkpointed run without failure; CPU" \
  "$(cat "$work/killed.cpu") s, $(ratio "$(cat "$work/killed.cpu")" "$ckpt_cpu")x; death to running" \
  "again: $(awk -v a="$died" -v b="$began" 'BEGIN { printf "%.2f", b - a }') s"
grep "^dataflow-recover:\|re-deploy after" "$work/killed.err" | sed 's/^/   /'

none=$(POC_DATAFLOW_KILL="1:1:job:$kill_at" timed none "${launcher[@]}" --interval 100000 \
  "${lcs[@]}" --stats)
[[ $(cat "$work/none.out") == "$answer" ]] || { echo "re-run disagrees"; exit 1; }
echo "4. the same kill without checkpoints: $none s, $(ratio "$none" "$plain")x plain; CPU" \
  "$(cat "$work/none.cpu") s, $(ratio "$(cat "$work/none.cpu")" "$plain_cpu")x"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
