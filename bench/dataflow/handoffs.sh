#!/usr/bin/env bash
# bench/dataflow/handoffs.sh AFTER [BEFORE] [ROUNDS]: what the hand-offs
# between a rank's threads cost an operand between two machines
# (bench/RESULTS.md, "Runtime: hand-offs"). AFTER and BEFORE are build
# trees; each round runs every measurement on each build in turn, so both
# see the same moments of a busy machine:
#  - dataflow-pingpong (DtCraft's ping-pong, 100,000 bits each way) at -n 2
#    with 1 and 2 workers per machine: wall seconds, and the futex calls and
#    context switches of rank 1 per message it receives (perf stat), which
#    the machine's load changes less than it changes time;
#  - operand-hop with 8 B, 64 KiB and 1 MiB operands: us per hop;
# and once per round the raw MPI half round trip of the same sizes
# (mpi-pingpong) as the baseline.
set -euo pipefail
after=${1:?usage: handoffs.sh AFTER [BEFORE] [ROUNDS]}
before=${2:-}
rounds=${3:-3}
mpiexec="${MPIEXEC:-mpirun} --oversubscribe --timeout 300"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
builds=("$after")
[[ -n $before ]] && builds+=("$before")
sizes="8 65536 1048576"

# pingpong BUILD WORKERS: "seconds futex/message switches/message".
pingpong() {
  local start end messages
  start=$(date +%s.%N)
  $mpiexec -n 2 sh -c "exec perf stat -x, -e syscalls:sys_enter_futex,context-switches \
      -o $work/stat.\$OMPI_COMM_WORLD_RANK $1/apps/dataflow/dataflow-pingpong \
      --threshold 100000 --workers $2" > "$work/out"
  end=$(date +%s.%N)
  messages=$(sed -n 's/.*(\([0-9]*\) messages).*/\1/p' "$work/out")
  awk -F, -v s="$start" -v e="$end" -v m="$messages" '
    /sys_enter_futex/ { f = $1 } /context-switches/ { c = $1 }
    END { printf "%6.2f s  %6.2f futex/msg  %6.2f switches/msg", e - s, f / (m / 2), c / (m / 2) }' \
    "$work/stat.1"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
for ((r = 1; r <= rounds; ++r)); do
  for b in "${builds[@]}"; do
    for w in 1 2; do
      echo "round $r  $b  pingpong, $w worker(s): $(pingpong "$b" "$w")"
    done
    echo "round $r  $b  operand hop (us): $($mpiexec -n 2 "$b/bench/dataflow/operand-hop" $sizes |
      awk '{printf "%s B %s  ", $2, $4}')"
  done
  echo "round $r  raw MPI half round trip (us): $($mpiexec -n 2 "$after/bench/dataflow/mpi-pingpong" \
    $sizes | awk '{printf "%s B %s  ", $2, $4}')  load $(cut -d' ' -f1 /proc/loadavg)"
done
