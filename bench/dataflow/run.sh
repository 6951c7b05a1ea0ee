#!/usr/bin/env bash
# bench/dataflow/run.sh BUILD: every dataflow benchmark, each against its
# baseline measured in the same run (bench/RESULTS.md, "Dataflow"):
#  1. an empty node's cost against TBB's flow graph (one machine);
#  2. one operand between two machines against a raw MPI ping-pong;
#  3. LCS (46,000 x 46,000) against the sequential DP and the MPI wavefront;
#  4. the distributed against the central scheduler (LCS and matmul);
#  5. placement's share of an LCS run;
#  6. the integration pipeline with and without stealing;
#  7. lines of user code, LCS and matmul, against the MPI versions;
#  8. matmul against the hand-written MPI blocked product.
# Wall times are the best of REPEATS runs of the whole command. SECTIONS
# (default all: "1 2 3 4 5 6 7 8") runs only those, e.g. "3 7 8".
set -euo pipefail
build=${1:?usage: run.sh BUILD [REPEATS] [SECTIONS]}
repeats=${2:-3}
sections=" ${3:-1 2 3 4 5 6 7 8} "
want() { [[ $sections == *" $1 "* ]]; }
here=$(cd "$(dirname "$0")" && pwd)
bin=$build/bench/dataflow
apps=$build/apps/dataflow
mpiexec="${MPIEXEC:-mpirun} --oversubscribe --timeout 600"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# best CMD...: the best wall time of the command, in seconds.
best() {
  local b= t
  for ((i = 0; i < repeats; ++i)); do
    /usr/bin/time -f "%e" -o "$work/time" "$@" > "$work/out" 2> "$work/err" ||
      { cat "$work/err" >&2; return 1; }
    t=$(tail -1 "$work/time")
    if [[ -z $b ]] || awk "BEGIN{exit !($t < $b)}"; then b=$t; fi
  done
  echo "$b"
}
ratio() { awk "BEGIN{printf \"%.2f\", $1 / $2}"; }
echo "load: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"

if want 1; then
echo "== 1. empty node, one machine (us per task): TBB flow graph, 2 threads | dataflow, 2 workers"
paste <("$bin/tbb-overhead" 2) <("$bin/task-overhead" --workers 2 | awk '{print $(NF-1)}') |
  awk '{printf "%-12s tbb %7.3f  dataflow %7.3f  ratio %6.2f\n", $1 ($2 ~ /^[0-9]/ ? "" : " " $2), $(NF-2), $NF, $NF / $(NF-2)}'

fi

if want 2; then
echo "== 2. one operand between two machines (us per hop): raw MPI | dataflow"
sizes="8 4096 65536 1048576"
paste <($mpiexec -n 2 "$bin/mpi-pingpong" $sizes | awk '{print $2, $4}') \
      <($mpiexec -n 2 "$bin/operand-hop" $sizes | awk '{print $4}') |
  awk '{printf "%8d bytes  raw %8.2f  dataflow %8.2f  ratio %6.1f\n", $1, $2, $3, $3 / $2}'

fi

# The LCS input of sections 3, 4 and 5: two random 46,000-letter sequences.
python3 -c "
import random
for name, seed in (('a', 11), ('b', 12)):
    random.seed(seed)
    open('$work/' + name + '.txt', 'w').write(''.join(random.choice('ACGT') for _ in range(46000)) + '\n')"
A=$work/a.txt B=$work/b.txt
if want 3; then
echo "== 3. LCS 46000 x 46000, block 2048 (wall seconds, best of $repeats)"
seq=$(best "$bin/sequential-lcs" "$A" "$B"); answer=$(cat "$work/out")
one=$(best "$apps/dataflow-lcs" --workers 1 --block 2048 "$A" "$B")
two=$(best "$apps/dataflow-lcs" --workers 2 --block 2048 "$A" "$B")
np2=$(best $mpiexec -n 2 "$apps/dataflow-lcs" --block 2048 "$A" "$B")
[[ $(cat "$work/out") == "$answer" ]] || { echo "dataflow-lcs disagrees: $(cat "$work/out")"; exit 1; }
mpi1=$(best $mpiexec -n 1 "$bin/mpi-lcs" --block 2048 "$A" "$B")
mpi2=$(best $mpiexec -n 2 "$bin/mpi-lcs" --block 2048 "$A" "$B")
grep -q "^$answer\$" "$work/out" || { echo "mpi-lcs disagrees: $(cat "$work/out")"; exit 1; }
echo "$answer"
echo "sequential DP                 $seq s"
echo "dataflow, 1 worker            $one s   / sequential $(ratio "$one" "$seq")"
echo "dataflow, 2 workers (bare)    $two s   speedup over 1 worker $(ratio "$one" "$two")"
echo "dataflow, mpirun -n 2         $np2 s   speedup over 1 worker $(ratio "$one" "$np2")"
echo "MPI wavefront, -n 1           $mpi1 s"
echo "MPI wavefront, -n 2           $mpi2 s   dataflow -n 2 / MPI -n 2 $(ratio "$np2" "$mpi2")"

fi

if want 4; then
echo "== 4. distributed vs central scheduler (run seconds; batches to and from rank 0)"
for np in 2 4; do
  for prog in "dataflow-lcs --block 2048 $A $B" "dataflow-matmul --size 1024 --block 128"; do
    for s in distributed central; do
      $mpiexec -n $np $apps/$prog --scheduler $s --stats > "$work/out" 2> "$work/err"
      awk -v np=$np -v s=$s -v p="${prog%% *}" '
        / run / { for (i = 1; i <= NF; ++i) if ($i == "run") t = $(i + 1) }
        /machine 0:/ { for (i = 1; i <= NF; ++i) { if ($i == "sent") b += $(i + 1); if ($i == "received") b += $(i + 1) } }
        END { printf "-n %d %-16s %-11s run %7.3f s  batches through rank 0: %d\n", np, p, s, t, b }' "$work/err"
    done
  done
done

fi

if want 5; then
echo "== 5. placement's share of an LCS run (block 512: 8100 nodes)"
for np in 1 2 4; do
  $mpiexec -n $np "$apps/dataflow-lcs" --block 512 --stats "$A" "$B" > /dev/null 2> "$work/err"
  awk -v np=$np '/ placement / { for (i = 1; i <= NF; ++i) { if ($i == "placement") p = $(i + 1); if ($i == "run") r = $(i + 1) } }
    END { printf "-n %d placement %.4f s of run %.3f s: %.2f %%\n", np, p, r, 100 * p / r }' "$work/err"
done

fi

if want 6; then
echo "== 6. integration pipeline, 2e9 points in 256 chunks (wall seconds)"
for np in 2 4; do
  off=$(best $mpiexec -n $np "$apps/dataflow-integrate" --variant pipeline --chunks 256 --points 2000000000 --steal off)
  on=$(best $mpiexec -n $np "$apps/dataflow-integrate" --variant pipeline --chunks 256 --points 2000000000 --steal on)
  echo "-n $np stealing off $off s, on $on s: speedup $(ratio "$off" "$on")"
done

fi

if want 7; then
echo "== 7. lines of user code (no blank or comment lines: grep -v -E '^\s*(//|\$)' FILE | wc -l)"
count() { grep -v -E '^\s*(//|$)' "$@" | wc -l; }
app=$here/../../apps/dataflow
echo "dataflow-lcs: $(count "$app/lcs.cpp"), mpi-lcs: $(count "$here/mpi_lcs.cpp"), shared kernel lcs_kernel.hpp: $(count "$app/lcs_kernel.hpp")"
echo "dataflow-matmul: $(count "$app/matmul.cpp"), mpi-matmul: $(count "$here/mpi_matmul.cpp"), shared kernel matmul_kernel.hpp: $(count "$app/matmul_kernel.hpp")"
fi

if want 8; then
echo "== 8. matmul 2048 (block 256) against the MPI blocked product (wall seconds, best of $repeats)"
for np in 1 2; do
  df=$(best $mpiexec -n $np "$apps/dataflow-matmul" --size 2048 --block 256); answer=$(cat "$work/out")
  mpi=$(best $mpiexec -n $np "$bin/mpi-matmul" --size 2048 --block 256)
  [[ $(cat "$work/out") == "$answer" ]] || { echo "mpi-matmul disagrees: $(cat "$work/out")"; exit 1; }
  echo "-n $np dataflow $df s, MPI $mpi s: dataflow / MPI $(ratio "$df" "$mpi")"
done
echo "$answer"
fi
