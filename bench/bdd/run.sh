#!/usr/bin/env bash
# bench/bdd/run.sh BUILD [REPEATS]: bdd-reach against BuDDy (breadth-first,
# the same model files, variable order and search) and bdd-reach's own
# strategies, 1 rank, best of REPEATS runs each (default table: 128 MiB,
# collecting garbage when it fills); then 1 against 2 ranks.
# Prints seconds, ratios and peak RSS. Needs POC_BENCH_DEPS=1 (BuDDy).
set -euo pipefail
build=${1:?usage: run.sh BUILD [REPEATS]}
repeats=${2:-3}
models=$(cd "$(dirname "$0")/../../tests/data/bdd-models" && pwd)
reach=$build/apps/bdd/bdd-reach
buddy=$build/bench/bdd/buddy-reach
mpiexec=${MPIEXEC:-mpirun}

# best_of CMD...: the smallest "time:" over the repeats, and the peak RSS (MB).
best_of() {
  local best= rss=0 t r out
  for ((i = 0; i < repeats; ++i)); do
    out=$( { /usr/bin/time -f "rss %M" "$@"; } 2>&1 )
    t=$(sed -n 's/^time: \([0-9.]*\) s$/\1/p' <<<"$out")
    r=$(sed -n 's/^rss \([0-9]*\)$/\1/p' <<<"$out")
    [[ -n $t ]] || { echo "failed: $*" >&2; echo "$out" >&2; return 1; }
    if [[ -z $best ]] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    ((r > rss)) && rss=$r
  done
  echo "$best $((rss / 1024))"
}

printf '%-22s %-6s %9s %9s %7s %9s %9s\n' model search buddy bdd-reach ratio rss-buddy rss-reach
for m in sylvan-format/anderson.4 sylvan-format/bakery.4 sylvan-format/schedule_world.2 \
         thesis-2014-format/anderson.1.8-rgs thesis-2014-format/schedule_world.2.8-rgs; do
  read -r tb rb < <(best_of "$buddy" "$models/$m.bdd")
  read -r tr rr < <(best_of "$reach" --table-mib 256 "$models/$m.bdd")
  printf '%-22s %-6s %9s %9s %7.2f %9s %9s\n' "$(basename "$m")" bfs "$tb" "$tr" \
    "$(awk "BEGIN{print $tr / $tb}")" "$rb" "$rr"
done
echo
printf '%-22s %-6s %9s %9s\n' model search seconds rss-MB
# collision.4's BFS and chaining take minutes (Sylvan's BFS 239 s): only
# with BDD_BENCH_LONG=1.
runs="collision.4:sat bakery.4:sat bakery.4:chain schedule_world.2:sat schedule_world.2:chain"
[[ -n ${BDD_BENCH_LONG:-} ]] && runs+=" collision.4:bfs collision.4:chain"
for run in $runs; do
  m=${run%%:*} s=${run##*:}
  read -r t r < <(best_of "$reach" --strategy "$s" "$models/sylvan-format/$m.bdd")
  printf '%-22s %-6s %9s %9s\n' "$m" "$s" "$t" "$r"
done
echo
printf '%-22s %-6s %9s %9s %7s\n' model search 1-rank 2-ranks ratio
for m in sylvan-format/bakery.4 sylvan-format/schedule_world.2; do
  read -r t1 _ < <(best_of "$mpiexec" -n 1 "$reach" --table-mib 256 "$models/$m.bdd")
  read -r t2 _ < <(best_of "$mpiexec" -n 2 --oversubscribe "$reach" --table-mib 128 "$models/$m.bdd")
  printf '%-22s %-6s %9s %9s %7.2f\n' "$(basename "$m")" bfs "$t1" "$t2" "$(awk "BEGIN{print $t2 / $t1}")"
done
