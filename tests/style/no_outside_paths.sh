#!/usr/bin/env bash
# tests/style/no_outside_paths.sh: fails if a file of the repository refers
# to a path outside it, so that a clone works with nothing beside it. Reads
# every tracked text file (git ls-files; in a tree without git, every file
# outside .git and the build folders) and flags:
#  * outside: the "shared" folder beside the checkout, reached with "..",
#    and CMake paths that climb out of the source root (CMAKE_SOURCE_DIR or
#    PROJECT_SOURCE_DIR followed by "..");
#  * climbs: a path relative to the file's own folder (a script's dirname,
#    CMAKE_CURRENT_SOURCE_DIR or _LIST_DIR, a Markdown link, a quoted
#    #include) with more ".." than the file is deep;
#  * machine: absolute paths into one machine's folders, the "work" tree at
#    the root, a user's folder under "home" or "Users", root's home;
#  * scratch: "tmp" at the root in the files the build and the tests run
#    (CMake, shell, Python, lit configurations and RUN lines). Their scratch
#    space comes from mktemp or the build tree; a line that calls mktemp,
#    whose fallback names that folder, is fine.
# Not flagged: system paths (usr, etc, dev, proc), and scratch places in
# docs, examples and C++ sources, where the user picks the folder.
# (The patterns below are written so that this file does not match them.)
# Prints FILE:LINE: TEXT [rule] for each reference; exit status 1 if any.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 2

list_files() {
  if [[ $(git rev-parse --show-toplevel 2>/dev/null) == "$root" ]]; then
    git ls-files
  else # an exported tree
    find . \( -path ./.git -o -path './build*' \) -prune -o -type f -print | sed 's|^\./||'
  fi
}
mapfile -t files < <(list_files | while IFS= read -r f; do [[ -f $f ]] && printf '%s\n' "$f"; done)
mapfile -t run_files < <(printf '%s\n' "${files[@]}" |
                         grep -E '(^|/)CMakeLists\.txt$|\.(cmake|sh|py|cfg)(\.in)?$')

# Where an absolute path starts: the line's start, a space, a quote,
# punctuation that separates a value (not a letter, digit, "." or "}"), or
# a file URL.
q="'"
start="(^|[[:space:]\"${q}\`=(:,<>|;]|file://)"
outside='\.\.[/]shared([^[:alnum:]_-]|$)|[$][{](CMAKE|PROJECT)_SOURCE_DIR[}]/\.\.([^.[:alnum:]_-]|$)'
machine="${start}/(wor[k]|roo[t])/|${start}/(hom[e]|User[s])/[[:alnum:]_.-]+"
scratch="${start}/tm[p]/"

# FILE:LINE: TEXT lines that are fine although they match, as regexes.
allowed=(
  # A fake home folder that the store's test sets and expects back.
  '^tests/persist/store_test\.cpp:[0-9]+:.*"/hom[e]/u[/"]'
)
allowed_re=$(IFS='|'; echo "${allowed[*]}")

# report RULE PATTERN FILE...: the matching lines, tagged with RULE.
report() {
  local rule=$1 pattern=$2
  shift 2
  (($#)) || return 0
  grep -I -n -H -E -- "$pattern" "$@" 2>/dev/null | sed "s/\$/ [$rule]/"
}

# climbs FILE...: the paths relative to a file's folder that climb out of
# the root; a file's depth is the number of "/" in its path from the root.
climbs() {
  (($#)) || return 0
  awk '
    FNR == 1 { depth = gsub("/", "/", FILENAME) }
    function out(line, re,   rest, path) {
      rest = line
      while (match(rest, re)) {
        path = substr(rest, RSTART, RLENGTH)
        if (gsub(/[.][.]/, "", path) > depth) return 1
        rest = substr(rest, RSTART + RLENGTH)
      }
      return 0
    }
    out($0, "(dirname [^)]*[)]|[$][{]CMAKE_CURRENT_(SOURCE|LIST)_DIR[}])(/[.][.])+") ||
    out($0, "(][(]|#include \")([.][.]/)+") { print FILENAME ":" FNR ":" $0 " [climbs]" }
  ' "$@"
}
mapfile -t relative_files < <(grep -I -l -E 'dirname|CMAKE_CURRENT_|\]\(|#include' -- "${files[@]}")

hits=$(
  {
    report outside "$outside" "${files[@]}"
    climbs "${relative_files[@]}"
    report machine "$machine" "${files[@]}"
    report scratch "$scratch" "${run_files[@]}" | grep -v -E '^[^:]*:[0-9]+:.*mktemp'
    report scratch "RUN:.*$scratch" "${files[@]}" | grep -v -E '^[^:]*:[0-9]+:.*mktemp'
  } | grep -v -E "$allowed_re" | sort -u -t: -k1,1 -k2,2n
)
if [[ -n $hits ]]; then
  printf '%s\n' "$hits"
  echo "no_outside_paths: $(wc -l <<<"$hits") reference(s) to paths outside the repository" \
       "(a clone has nothing beside it: put the file in the repository, or cite it by" \
       "author, title and year)" >&2
  exit 1
fi
echo "no_outside_paths: ${#files[@]} files, no reference to a path outside the repository"
