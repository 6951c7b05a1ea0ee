#!/usr/bin/env bash
# bench/bdd/run.sh BUILD [REPEATS]: bdd-reach side by side with BuDDy and
# Sylvan in one run, on the same models, strategies and machine.
#
#   BuDDy   bench/bdd/buddy-reach (POC_BENCH_DEPS=1): the same files through
#           the same parser, the same variable order and the same BFS; one core.
#   Sylvan  its examples/bddmc, built outside the repository, when
#           SYLVAN_BDDMC=path is given: 1 and 2 workers (-w 1, -w 2).
#   bdd-reach  bare with `--threads 1` (one rank, one thread), bare with
#           `--threads 2` (one rank, two threads stealing each other's
#           recursive calls; the default on 2 cores), and under
#           `mpirun -n 2 --mca pml ob1` (MPIEXEC
#           overrides mpirun). On one machine Open MPI ends up with its ob1
#           layer anyway; naming it saves the 0.2 s it spends probing for
#           fabrics the machine lacks (a bare run skips the probe by itself:
#           docs/runtime.md section 1).
#
# Every entry is the best of REPEATS runs (default 3) by wall time; the row
# shows that run's wall time (the whole program, /usr/bin/time), search time
# (bdd-reach and BuDDy's `time:`, bddmc's `BFS/SAT/CHAINING Time:`), peak
# RSS (of the largest process), and for bdd-reach its operation cache's hit
# rate and the table's chunks and compares per lookup (its `probes:` line).
# Then the ratios the issue's goals are stated in, from this same run.
# BDD_BENCH_LONG=1 adds collision.4's BFS and chaining (minutes each).
# BDD_BASELINE=path/to/bdd-reach adds that (older) bdd-reach with one thread
# as a row of its own, so that a change is measured against the code before
# it in the same run; BDD_BENCH_NO_RANKS=1 leaves the `mpirun -n 2` row out.
set -euo pipefail
build=${1:?usage: run.sh BUILD [REPEATS]}
repeats=${2:-3}
models=$(cd "$(dirname "$0")/../../tests/data/bdd-models" && pwd)
reach=$build/apps/bdd/bdd-reach
buddy=$build/bench/bdd/buddy-reach
bddmc=${SYLVAN_BDDMC:-}
mpiexec=${MPIEXEC:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# best_of CMD...: "wall search rss-MB hits probes" of the fastest of the
# repeats ("-" where the program does not report it).
best_of() {
  local best='' line out wall search rss hits probes
  for ((i = 0; i < repeats; ++i)); do
    out=$({ /usr/bin/time -f "wall %e rss %M" "$@"; } 2>&1) || {
      echo "failed: $*" >&2
      echo "$out" >&2
      return 1
    }
    wall=$(sed -n 's/^wall \([0-9.]*\) rss.*/\1/p' <<<"$out")
    rss=$(sed -n 's/^wall .* rss \([0-9]*\)$/\1/p' <<<"$out")
    search=$(sed -n -e 's/^time: \([0-9.]*\) s$/\1/p' \
      -e 's/.*\(BFS\|SAT\|CHAINING\) Time: \([0-9.]*\)$/\2/p' <<<"$out")
    hits=$(sed -n 's/^probes: .*cache hits \([0-9.]*%\)$/\1/p' <<<"$out")
    probes=$(sed -n 's/^probes: [0-9]* lookups, \([0-9.]*\) chunks and \([0-9.]*\) compares.*/\1\/\2/p' <<<"$out")
    [[ -n $search ]] || {
      echo "no search time: $*" >&2
      echo "$out" >&2
      return 1
    }
    line="$wall $(printf '%.3f' "$search") $((rss / 1024)) ${hits:--} ${probes:--}"
    if [[ -z $best ]] || awk "BEGIN{exit !($wall < ${best%% *})}"; then best=$line; fi
  done
  echo "$best"
}

ratio() { awk "BEGIN{printf \"%.2f\", $1 / $2}"; }

echo "# $(uname -n), $(nproc) cores, load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-26s %-6s %-16s %8s %8s %7s %7s %11s\n' model search program wall-s search-s rss-MB \
  hits chunk/cmp
ratios=()
runs="anderson.4:bfs bakery.4:bfs schedule_world.2:bfs bakery.4:chain schedule_world.2:chain"
runs+=" collision.4:sat bakery.4:sat schedule_world.2:sat"
[[ -n ${BDD_BENCH_LONG:-} ]] && runs+=" collision.4:bfs collision.4:chain"
for run in $runs; do
  m=${run%%:*} s=${run##*:}
  file=$models/sylvan-format/$m.bdd
  declare -A wall=()
  row() { # row PROGRAM CMD...
    local name=$1 r
    shift
    r=$(best_of "$@")
    read -r w t rss h p <<<"$r"
    wall[$name]=$w
    printf '%-26s %-6s %-16s %8s %8s %7s %7s %11s\n' "$m" "$s" "$name" "$w" "$t" "$rss" "$h" "$p"
  }
  [[ $s == bfs && -x $buddy ]] && row buddy "$buddy" "$file"
  if [[ -n $bddmc ]]; then
    sylvan_strategy=$s
    [[ $s == chain ]] && sylvan_strategy=chaining
    row sylvan-w1 "$bddmc" -w 1 -s "$sylvan_strategy" "$file"
    row sylvan-w2 "$bddmc" -w 2 -s "$sylvan_strategy" "$file"
  fi
  [[ -n ${BDD_BASELINE:-} ]] && row baseline "$BDD_BASELINE" --threads 1 --strategy "$s" "$file"
  row bdd-reach "$reach" --threads 1 --strategy "$s" "$file"
  row "bdd-reach -t 2" "$reach" --threads 2 --strategy "$s" "$file"
  best2=${wall[bdd-reach]}
  r="$m $s:"
  if [[ -z ${BDD_BENCH_NO_RANKS:-} ]]; then
    row "bdd-reach -n 2" "$mpiexec" -n 2 --oversubscribe --mca pml ob1 "$reach" --strategy "$s" "$file"
    awk "BEGIN{exit !(${wall[bdd-reach -n 2]} < $best2)}" && best2=${wall[bdd-reach -n 2]}
    r+=" n2/n1 $(ratio "${wall[bdd-reach -n 2]}" "${wall[bdd-reach]}"),"
  fi
  [[ -n ${BDD_BASELINE:-} ]] && r+=" 1 thread/baseline $(ratio "${wall[bdd-reach]}" "${wall[baseline]}"),"
  [[ -n ${wall[buddy]:-} ]] && r+=" 1 rank/BuDDy $(ratio "${wall[bdd-reach]}" "${wall[buddy]}"),"
  [[ -n $bddmc ]] && r+=" 1 rank/Sylvan-w1 $(ratio "${wall[bdd-reach]}" "${wall[sylvan-w1]}"),"
  [[ -n $bddmc ]] && r+=" best of 1,2 ranks/Sylvan-w2 $(ratio "$best2" "${wall[sylvan-w2]}"),"
  r+=" 2 threads/1 thread $(ratio "${wall[bdd-reach -t 2]}" "${wall[bdd-reach]}")"
  [[ -n $bddmc ]] && r+=", 2 threads/Sylvan-w2 $(ratio "${wall[bdd-reach -t 2]}" "${wall[sylvan-w2]}")"
  ratios+=("$r")
  unset wall
done
echo
echo "wall-time ratios (below 1: bdd-reach faster)"
printf '  %s\n' "${ratios[@]}"
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
