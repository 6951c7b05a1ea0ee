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
  differ=()
  for f in "${files[@]}"; do
    if ! "$format" --style=file --dry-run --Werror "$f" >/dev/null 2>&1; then
      differ+=("$f")
    fi
  done
  if ((${#differ[@]})); then
    printf 'not formatted (run scripts/format.sh): %s\n' "${differ[@]}" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files formatted"
else
  "$format" --style=file -i "${files[@]}"
fi
