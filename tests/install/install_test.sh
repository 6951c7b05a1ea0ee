#!/usr/bin/env bash
# Installs the build tree into a scratch prefix and checks that the installed
# poc++ finds the installed runtime (not the build tree's): it compiles the
# paper's remote-array example and runs it bare and under mpirun. Then a
# separate CMake project (project/) builds against the installed package
# with find_package(poc CONFIG REQUIRED), and its program runs bare and
# under mpirun.
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

cp -r "$source/tests/install/project" "$work/project"
cmake -S "$work/project" -B "$work/project-build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
      >"$work/configure.log" 2>&1 || { cat "$work/configure.log" >&2; exit 1; }
cmake --build "$work/project-build" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
if grep -q -- "$build" "$work/project-build/build.ninja"; then
  echo "the package project used the build tree:" >&2
  grep -- "$build" "$work/project-build/build.ninja" | head -5 >&2
  exit 1
fi
"$work/project-build/bank" > "$work/bank-bare.txt"
"$mpiexec" -n 3 --oversubscribe --timeout 60 "$work/project-build/bank" > "$work/bank-mpi.txt"
diff "$source/tests/install/project/expected.txt" "$work/bank-bare.txt"
diff "$source/tests/install/project/expected.txt" "$work/bank-mpi.txt"
echo "installed CMake package: OK"
