#!/usr/bin/env bash
# Every file of libPocCompiler (compiler/lib/*.cpp, and headers with no
# source of their own) has a row in docs/compiler.md's file table.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
table=$(grep '^| `' "$root/docs/compiler.md")
missing=0
for file in "$root"/compiler/lib/*.cpp "$root"/compiler/include/pocc/*.h; do
  name=$(basename "${file%.*}")
  if ! grep -q "\`$name\`" <<<"$table"; then
    echo "docs/compiler.md: the file table has no row for $name (${file#"$root"/})"
    missing=1
  fi
done
exit $missing
