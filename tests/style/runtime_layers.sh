#!/usr/bin/env bash
# tests/style/runtime_layers.sh: docs/architecture.md ("The runtime's
# layers") and the code of runtime/src and runtime/include agree:
#  * every file there belongs to a layer of the doc's table (the longest
#    path of the table's "files" column that covers it);
#  * every #include there that names a file of the runtime stays within the
#    layers the including file's row lists under "may include";
#  * only the transport lays out message frames, and only the transport and
#    the files named below call MPI;
#  * every file the table names exists, the table names every file of
#    src/ outside serialize/ and persist/, and every path the doc quotes
#    in backticks exists in the repository.
# The exceptions are the known deviations listed here, each of which the
# doc names in its section "Known deviations from the intended layering".
# A new deviation fails, and so does a listed one that no longer occurs:
# remove it here and from the doc.
# Prints one line per disagreement; exit status 1 if any.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root/runtime" || exit 2
doc=$root/docs/architecture.md

# FILE INCLUDED: includes that break the table (paths under runtime/).
include_deviations=(
  "src/transport/wire.hpp include/poc/process_id.hpp"
  "src/transport/message.cpp include/poc/transport.hpp"
  "include/poc/serialize/pointer.hpp include/poc/process_id.hpp"
  "include/poc/serialize/process_id.hpp include/poc/process_id.hpp"
)
# Files outside src/transport that lay out frames (reserve_frame, seal,
# frame, body_offset of wire.hpp).
framing_deviations=(src/process/calls.cpp src/process/host.cpp)
# Files outside src/transport and src/run.cpp that call MPI: placement is a
# deviation; process_group.cpp makes the communicator a program asks for;
# trace_file.cpp gathers the trace (POC_TRACE) at the end.
mpi_deviations=(src/process/placement.cpp)
mpi_callers=(src/run.cpp src/process/process_group.cpp src/trace/trace_file.cpp
             "${mpi_deviations[@]}")

failures=0
fail() {
  echo "runtime_layers: $*"
  failures=1
}

# The table: rows of "| layer | files | may include | what it holds |".
mapfile -t rows < <(awk '
  /^\| layer \| files \| may include \| what it holds \|/ { on = 1; next }
  on && /^\|---/ { next }
  on && !/^\|/ { exit }
  on { print }' "$doc")
((${#rows[@]})) || { fail "docs/architecture.md has no layer table"; exit 1; }

# ticked TEXT: the words of TEXT quoted in backticks, one a line.
ticked() { grep -o '`[^`]*`' <<<"$1" | tr -d '`'; }
declare -A allowed row_paths row_text
paths=() # "PATH LAYER", for layer_of
for row in "${rows[@]}"; do
  IFS='|' read -r _ layer files may text <<<"$row"
  layer=$(xargs <<<"$layer")
  allowed[$layer]=" $(tr ',' ' ' <<<"$may" | xargs) "
  row_text[$layer]=$text
  row_paths[$layer]=$(ticked "$files" | xargs)
  for p in ${row_paths[$layer]}; do
    [[ -e $p ]] || fail "the table's row $layer names $p, which does not exist"
    paths+=("$p $layer")
  done
done

# layer_of PATH: sets `found` to the layer of the longest table path that
# covers PATH ("" if none).
layer_of() {
  local file=$1 best_len=0 entry p
  found=""
  for entry in "${paths[@]}"; do
    p=${entry% *}
    if [[ $file == "$p" || ($p == */ && $file == "$p"*) ]] && ((${#p} > best_len)); then
      found=${entry#* }
      best_len=${#p}
    fi
  done
}

mapfile -t files < <(find src include -type f \( -name '*.hpp' -o -name '*.cpp' \) | sort)
declare -A layer
for f in "${files[@]}"; do
  layer_of "$f"
  layer[$f]=$found
  [[ -n $found ]] || fail "$f belongs to no layer of docs/architecture.md's table"
done

# Includes that leave the layers a file may include.
declare -A deviation_seen
for d in "${include_deviations[@]}"; do
  deviation_seen[$d]=0
done
include_re='#[[:space:]]*include[[:space:]]*([<"])([^">]+)[">]'
while IFS=: read -r file line text; do
  [[ $text =~ $include_re ]] || continue
  name=${BASH_REMATCH[2]}
  if [[ ${BASH_REMATCH[1]} == '<' ]]; then
    [[ $name == poc/* ]] || continue
    target=include/$name
  elif [[ $name == poc/* ]]; then
    target=include/$name
  elif [[ $name == */* ]]; then
    target=src/$name
  else
    target=${file%/*}/$name
  fi
  if [[ -z ${layer[$target]+x} ]]; then
    fail "$file:$line: #include \"$name\" names no file of the runtime"
    continue
  fi
  from=${layer[$file]}
  to=${layer[$target]}
  [[ -n $from && -n $to ]] || continue
  [[ $from == "$to" || ${allowed[$from]} == *" all "* || ${allowed[$from]} == *" $to "* ]] &&
    continue
  if [[ -n ${deviation_seen["$file $target"]+x} ]]; then
    deviation_seen["$file $target"]=1
  else
    fail "$file:$line: the $from layer includes $target of the $to layer" \
         "(docs/architecture.md, \"The runtime's layers\")"
  fi
done < <(grep -nH -E '^[[:space:]]*#[[:space:]]*include' "${files[@]}")
for d in "${include_deviations[@]}"; do
  ((deviation_seen[$d])) ||
    fail "${d% *} no longer includes ${d#* }: remove it from the deviations here and in the doc"
done

# check_users WHAT REGEX ALLOWED...: the files of src/ outside src/transport
# that match REGEX are exactly ALLOWED.
check_users() {
  local what=$1 regex=$2 f
  shift 2
  local -A expected=()
  for f in "$@"; do
    expected[$f]=0
  done
  while IFS= read -r f; do
    if [[ -n ${expected[$f]+x} ]]; then
      expected[$f]=1
    elif [[ $f != src/transport/* ]]; then
      fail "$f $what (docs/architecture.md, \"The runtime's layers\")"
    fi
  done < <(grep -l -E "$regex" -r src)
  for f in "$@"; do
    ((expected[$f])) || fail "$f no longer $what: remove it from the list here"
  done
}
check_users "lays out message frames" \
  '\b(reserve_frame|seal|frame|body_offset)[[:space:]]*(<[^>]*>)?[[:space:]]*\(' \
  "${framing_deviations[@]}"
check_users "calls MPI" '\bMPI_[A-Z][a-z_]+[[:space:]]*\(' "${mpi_callers[@]}"

# The doc's section on deviations names the file of each one (by its name,
# or a path that ends with it).
mapfile -t named < <(ticked "$(awk '/^### Known deviations/ { on = 1; next }
                                    on && /^#/ { exit } on' "$doc")")
for f in "${include_deviations[@]%% *}" "${framing_deviations[@]}" "${mpi_deviations[@]}"; do
  ok=0
  for n in "${named[@]}"; do
    [[ $f == "$n" || $f == */"$n" ]] && ok=1 && break
  done
  ((ok)) || fail "docs/architecture.md's known deviations do not name $f"
done

# Every file of src/ (but serialize's and the store's, which their headers
# describe) is named in its row; every file a row names lies in its folders.
declare -A row_names
for l in "${!row_text[@]}"; do
  row_names[$l]=" $(ticked "${row_text[$l]}" | xargs) ${row_paths[$l]} "
done
for f in "${files[@]}"; do
  [[ $f == src/* && $f != src/serialize/* && $f != src/persist/* ]] || continue
  stem=${f##*/}
  stem=${stem%.*}
  l=${layer[$f]}
  [[ -z $l || ${row_names[$l]} =~ [[:space:]/]$stem\.(hpp|cpp)[[:space:]] ]] ||
    fail "docs/architecture.md: the row of the $l layer does not name $stem ($f)"
done
for l in "${!row_text[@]}"; do
  for name in $(ticked "${row_text[$l]}" | grep -E '^[A-Za-z0-9_/.-]+\.(hpp|cpp)$'); do
    ok=0
    for f in "${files[@]}"; do
      [[ ${layer[$f]} == "$l" && ($f == */"$name") ]] && ok=1 && break
    done
    ((ok)) || fail "docs/architecture.md: the $l row names $name, not a file of its layer"
  done
done

# Every path the doc quotes exists: a quoted word with a "/" or a source or
# document extension is a path, matched against the repository's files.
cd "$root" || exit 2
if [[ $(git rev-parse --show-toplevel 2>/dev/null) == "$root" ]]; then
  list_files() { git ls-files --cached --others --exclude-standard; }
else
  list_files() {
    find . \( -path ./.git -o -path './build*' \) -prune -o -type f -print | sed 's|^\./||'
  }
fi
while IFS= read -r word; do
  fail "docs/architecture.md quotes $word, which is no file or folder of the repository"
done < <(ticked "$(cat "$doc")" | sort -u | awk '
  NR == FNR { files[NR] = "/" $0; n = NR; next }
  {
    w = $0
    sub(/^</, "", w); sub(/>$/, "", w)
    if (w !~ /^[A-Za-z0-9_.+\/-]+$/) next
    if (w !~ /\// && w !~ /\.(hpp|cpp|h|md|sh|cmake|py|txt)$/) next
    for (i = 1; i <= n; i++) {
      f = files[i]
      if (w ~ /\/$/ ? index(f, "/" w) : substr(f, length(f) - length(w)) == "/" w) next
    }
    print w
  }' <(list_files) -)

((failures == 0)) &&
  echo "runtime_layers: docs/architecture.md agrees with runtime/ (${#files[@]} files)"
exit $failures
