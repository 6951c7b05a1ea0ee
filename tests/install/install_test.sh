#!/usr/bin/env bash
# Installs the build tree into a scratch prefix and checks that the installed
# poc++ finds the installed runtime (not the build tree's): it compiles the
# paper's remote-array example and runs it bare and under mpirun.
# usage: install_test.sh BUILD_DIR SOURCE_DIR MPIEXEC
set -euo pipefail
build=$1 source=$2 mpiexec=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
cp "$source/examples/remote-array/remote_array.cpp" "$work/"
cd "$work"
"$work/prefix/bin/poc++" -O1 -v remote_array.cpp -o remote_array 2>compile.log
if grep -q -- "$build" compile.log; then
  echo "installed poc++ used the build tree:" >&2
  cat compile.log >&2
  exit 1
fi
./remote_array > bare.txt
"$mpiexec" -n 3 --oversubscribe --timeout 60 ./remote_array > mpi.txt
diff "$source/examples/remote-array/expected.txt" bare.txt
diff "$source/examples/remote-array/expected.txt" mpi.txt
echo "installed poc++: OK"
