#!/bin/bash
# dataflow-lcs --allocation FILE: the first run places the graph and writes
# FILE, the second reads it (and gives the same answer), and a run on
# another number of machines refuses it, naming the file and the line.
# Usage: allocation_test.sh DATAFLOW_LCS DATA_DIR MPIEXEC
set -u
lcs=$1 data=$2 mpiexec=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
file=$dir/lcs.allocation
# Standard output (the result) and standard error (--stats, errors) apart:
# mpirun forwards them separately, so merged they may interleave mid-line.
run() { "$mpiexec" -n "$1" --oversubscribe --timeout 60 "$lcs" --stats --block 300 \
          --allocation "$file" "$data/a.txt" "$data/b.txt" 2>"$dir/err"; }
fail() { echo "FAIL: $*"; cat "$dir/err"; exit 1; }

out=$(run 2) || fail "first run: $out"
grep -q '^lcs length: 1777$' <<<"$out" || fail "first run: $out"
grep -q 'from the allocation file' "$dir/err" && fail "first run read a file"
[ -s "$file" ] || fail "no allocation file written"
grep -q $'^block 0,0\t[01]\t0$' "$file" || fail "allocation file: $(head -3 "$file")"

out=$(run 2) || fail "second run: $out"
grep -q '^lcs length: 1777$' <<<"$out" || fail "second run: $out"
grep -q 'from the allocation file' "$dir/err" || fail "second run placed again"

out=$(run 4)
status=$?
[ "$status" -eq 1 ] || fail "run on 4 machines: status $status: $out"
grep -q "^dataflow-lcs: $file:2: written for 2 machines with workers \[1 1\], but this run has 4" \
  "$dir/err" || fail "run on 4 machines: $out"
grep -q '^lcs length' <<<"$out" && fail "run on 4 machines printed a result: $out"
echo "allocation file: written, read, refused on another machine count"
