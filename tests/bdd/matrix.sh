#!/usr/bin/env bash
# tests/bdd/matrix.sh BUILD [TIMEOUT]: every model of tests/data with every
# strategy, bare with one thread (--threads 1), bare with two (--threads 2,
# "t2") and under mpirun -n 1, 2 and 4, against the expected states, final-set nodes and BFS depth
# (tests/data/bdd-models/README.md and the thesis's Fig. 5.14). One line per
# run; exit status 1 if any run fails or differs. ctest runs a covering
# subset (tests/bdd/CMakeLists.txt); this is the whole matrix, which takes
# too long for CI (collision.4's BFS and chaining take minutes each).
# TIMEOUT (seconds, default 1800) bounds a run.
# BDD_MATRIX_SKIP, an extended regex over "model:strategy:ranks" (ranks is
# bare, t2, 1, 2 or 4), leaves runs out, e.g. 'collision.4:(bfs|chain):[124]'.
set -uo pipefail
build=${1:?usage: matrix.sh BUILD [TIMEOUT]}
limit=${2:-1800}
models=$(cd "$(dirname "$0")/../data/bdd-models" && pwd)
reach=$build/apps/bdd/bdd-reach
mpiexec=${MPIEXEC:-mpirun}

# file | states | nodes (blank: not checked) | BFS depth (blank: not checked)
expected=(
  "sylvan-format/anderson.4|29641|5934|81"
  "sylvan-format/bakery.4|157003|7186|105"
  "sylvan-format/collision.4|41465543||"
  "sylvan-format/schedule_world.2|1570340|10092|18"
  "thesis-2014-format/anderson.1.8-rgs|352664|22221|1293"
  "thesis-2014-format/anderson.6.4-rgs|18206917|75220|181"
  "thesis-2014-format/at.5.8-rgs|31999440|156785|51"
  "thesis-2014-format/schedule_world.2.8-rgs|1570340|18779|18"
)

# field NAME TEXT: the value of the line "NAME: value".
field() { sed -n "s/^$1: \\([0-9]*\\).*/\\1/p" <<<"$2"; }

failed=0
printf '%-26s %-6s %-5s %10s %8s %6s %9s  %s\n' model search ranks states nodes depth seconds verdict
for row in "${expected[@]}"; do
  IFS='|' read -r file states nodes depth <<<"$row"
  for strategy in bfs chain sat; do
    for ranks in bare t2 1 2 4; do
      if [[ -n ${BDD_MATRIX_SKIP:-} && "$(basename "$file"):$strategy:$ranks" =~ ^($BDD_MATRIX_SKIP)$ ]]; then
        printf '%-26s %-6s %-5s %10s %8s %6s %9s  %s\n' "$(basename "$file")" "$strategy" "$ranks" \
          - - - - skipped
        continue
      fi
      command=("$reach" --table-mib 1024 --strategy "$strategy" "$models/$file.bdd")
      if [[ $ranks == bare ]]; then
        command=(timeout "$limit" "${command[@]}" --threads 1)
      elif [[ $ranks == t2 ]]; then
        command=(timeout "$limit" "${command[@]}" --threads 2)
      else
        # The ranks share the memory: 1 GiB in all.
        command=("$mpiexec" -n "$ranks" --oversubscribe --timeout "$limit" "$reach"
                 --table-mib $((1024 / ranks)) --strategy "$strategy" "$models/$file.bdd")
      fi
      out=$("${command[@]}" 2>&1)
      status=$?
      verdict=ok
      got_states=$(field states "$out") got_nodes=$(field nodes "$out")
      got_depth=$(field depth "$out") seconds=$(sed -n 's/^time: \([0-9.]*\) s$/\1/p' <<<"$out")
      if ((status != 0)); then
        verdict="FAILED (exit $status): $(tail -n 1 <<<"$out")"
      elif [[ $got_states != "$states" ]] || [[ -n $nodes && $got_nodes != "$nodes" ]] ||
           [[ -n $depth && $strategy == bfs && $got_depth != "$depth" ]]; then
        verdict="DIFFERS (expected $states states, ${nodes:-any} nodes, depth ${depth:-any})"
      fi
      [[ $verdict == ok ]] || failed=1
      printf '%-26s %-6s %-5s %10s %8s %6s %9s  %s\n' "$(basename "$file")" "$strategy" "$ranks" \
        "${got_states:--}" "${got_nodes:--}" "${got_depth:--}" "${seconds:--}" "$verdict"
    done
  done
done
exit $failed
