#!/usr/bin/env bash
# scripts/format.sh [--check]: formats the project's C++ with .clang-format
# (clang-format-19), or with --check lists the files that differ and fails.
# Left alone: inputs whose exact text tests compare (tests/compiler's lit
# files, the fuzzer's corpus, the tutorial's programs).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
format=${CLANG_FORMAT:-clang-format-19}
list_sources() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files '*.cpp' '*.hpp' '*.h' '*.cpp.in' '*.h.in'
  else # an exported tree: every source outside build folders
    find . -path './build*' -prune -o -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \
         -o -name '*.cpp.in' -o -name '*.h.in' \) -print | sed 's|^\./||'
  fi
}
mapfile -t files < <(list_sources |
                     grep -v -e '^tests/compiler/' -e '^compiler/fuzz/corpus/' -e '^tests/tutorial/')
if [[ "${1:-}" == --check ]]; then
  # One clang-format for every file (a process per file took 18-70 s); each
  # difference is reported as "<file>:<line>:<col>: error: ...".
  status=0
  report=$("$format" --style=file --dry-run --Werror "${files[@]}" 2>&1) || status=$?
  mapfile -t differ < <(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' <<<"$report" | sort -u)
  if ((${#differ[@]})); then
    printf 'not formatted (run scripts/format.sh): %s\n' "${differ[@]}" >&2
    exit 1
  fi
  if ((status != 0)); then
    printf '%s\nformat: %s failed with status %d\n' "$report" "$format" "$status" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files formatted"
else
  "$format" --style=file -i "${files[@]}"
fi
