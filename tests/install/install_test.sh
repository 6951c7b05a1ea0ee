#!/usr/bin/env bash
# What a new user does after building: installs the build tree into a
# scratch prefix and checks that the installed poc++ finds the installed
# runtime (not the build tree's): it compiles the paper's remote-array
# example and runs it bare and under mpirun. Then a separate CMake project
# (project/) builds against the installed package with
# find_package(poc CONFIG REQUIRED COMPONENTS dataflow), and against the
# build tree's package; its programs run bare and under mpirun -n 3, and its
# golden test passes, then fails once a method's signature changes.
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

# Built with AddressSanitizer: a clean program exits 0 with its output
# through a pipe, bare and under mpirun, and LeakSanitizer prints nothing
# (Open MPI's own allocations are not reported, and the suppressions they
# matched are not listed on every rank); a program's own leak is reported,
# by its function, and its output is kept.
"$work/prefix/bin/poc++" -g -fsanitize=address remote_array.cpp -o remote_array_asan
./remote_array_asan 2>asan-bare.err | cat > asan-bare.txt
"$mpiexec" -n 3 --oversubscribe --timeout 60 ./remote_array_asan 2>asan-mpi.err | cat > asan-mpi.txt
diff "$source/examples/remote-array/expected.txt" asan-bare.txt
diff "$source/examples/remote-array/expected.txt" asan-mpi.txt
for run in bare mpi; do
  if grep -q -e "Suppressions used" -e "LeakSanitizer" "asan-$run.err"; then
    echo "remote_array_asan ($run): LeakSanitizer printed though nothing leaked:" >&2
    cat "asan-$run.err" >&2
    exit 1
  fi
done
"$work/prefix/bin/poc++" -g -fsanitize=address "$source/tests/install/own_leak.cpp" -o own_leak
for run in bare mpi; do
  command=(./own_leak)
  [[ $run == mpi ]] && command=("$mpiexec" -n 2 --oversubscribe --timeout 60 ./own_leak)
  if "${command[@]}" 2>"leak-$run.err" | cat >"leak-$run.txt"; then
    echo "own_leak ($run): the leak checker did not fail the program" >&2
    exit 1
  fi
  grep -qx "reading: 42" "leak-$run.txt" ||
    { echo "own_leak ($run): output lost" >&2; cat "leak-$run.txt" >&2; exit 1; }
  grep -q "in leak_a_buffer()" "leak-$run.err" ||
    { echo "own_leak ($run): the leak is not reported" >&2; cat "leak-$run.err" >&2; exit 1; }
  if [[ $(grep -c "leak of" "leak-$run.err") != 1 ]]; then
    echo "own_leak ($run): leaks other than the program's are reported:" >&2
    cat "leak-$run.err" >&2
    exit 1
  fi
done
echo "installed poc++ with AddressSanitizer: OK"

# The newcomer's project (project/CMakeLists.txt) against the installed
# package, then against the build tree's package: built, its programs run
# bare and under mpirun, its golden test passed; a changed signature must
# fail the golden test with FileCheck's report of the changed line.
cp -r "$source/tests/install/project" "$work/project"
check_project() { # check_project NAME CMAKE_ARGS...
  local name=$1 out=$work/$1
  shift
  cmake -S "$work/project" -B "$out" -G Ninja "$@" >"$out.configure.log" 2>&1 ||
    { cat "$out.configure.log" >&2; exit 1; }
  cmake --build "$out" >"$out.build.log" 2>&1 || { cat "$out.build.log" >&2; exit 1; }
  local program
  for program in bank wordcount; do
    "$out/$program" >"$out.$program.bare.txt"
    "$mpiexec" -n 3 --oversubscribe --timeout 60 "$out/$program" >"$out.$program.mpi.txt"
  done
  diff "$work/project/expected.txt" "$out.bank.bare.txt"
  diff "$work/project/expected.txt" "$out.bank.mpi.txt"
  diff "$work/project/wordcount.expected" "$out.wordcount.bare.txt"
  diff "$work/project/wordcount.expected" "$out.wordcount.mpi.txt"
  local model=$source/tests/data/bdd-models/sylvan-format/anderson.4.bdd
  [[ $("$out/modelinfo" "$model") == "groups: 24, state variables: 31, nodes in the file: 2317" ]] ||
    { echo "modelinfo read $model wrongly" >&2; exit 1; }
  if "$out/modelinfo" "$work/project/CMakeLists.txt" >"$out.modelinfo.txt"; then
    echo "modelinfo accepted a file that is not a model" >&2
    exit 1
  fi
  grep -q "CMakeLists.txt: byte 0:" "$out.modelinfo.txt"
  ctest --test-dir "$out" --output-on-failure >"$out.ctest.log" 2>&1 ||
    { cat "$out.ctest.log" >&2; exit 1; }
}
check_project installed -DCMAKE_PREFIX_PATH="$work/prefix"
if grep -q -- "$build" "$work/installed/build.ninja"; then
  echo "the package project used the build tree:" >&2
  grep -- "$build" "$work/installed/build.ninja" | head -5 >&2
  exit 1
fi
echo "installed CMake package: OK"
check_project build-tree -Dpoc_DIR="$build"
echo "build tree's CMake package: OK"

# docs/dataflow.md's command for a dataflow program without CMake.
P=$work/prefix
"$P/bin/poc++" -O2 "$work/project/wordcount.cpp" -I"$P/include" "$P/lib/libdataflow_core.a" \
  -o "$work/wordcount-by-hand"
"$work/wordcount-by-hand" >"$work/wordcount-by-hand.txt"
diff "$work/project/wordcount.expected" "$work/wordcount-by-hand.txt"
echo "dataflow program built by hand: OK"

sed -i 's/void withdraw(int account, long amount);/void withdraw(int account, int amount);/' \
  "$work/project/ledger.hpp"
if ctest --test-dir "$work/installed" --output-on-failure >"$work/changed.log" 2>&1; then
  echo "the golden test passed after a signature changed" >&2
  exit 1
fi
for expected in 'CHECK-NEXT: withdraw_0 = ::poc::method_id("Ledger::withdraw(int, long)"),' \
                'withdraw_0 = ::poc::method_id("Ledger::withdraw(int, int)"),'; do
  grep -qF -- "$expected" "$work/changed.log" ||
    { echo "the failed golden test does not show: $expected" >&2; cat "$work/changed.log" >&2; exit 1; }
done
echo "golden test of a changed signature: failed as it should"
