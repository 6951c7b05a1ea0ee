#!/usr/bin/env bash
# Every way docs/compiler.md shows to build a library, with a library file
# (project/pay.cpp) that only calls a class the program creates: each
# program prints project/expected.txt bare and under mpirun, and the one
# shape that cannot be repaired fails to build, saying what to do.
#
#   run.sh POC_PACKAGE_DIR POCXX MPIEXEC WORK_DIR
#
# 1. project/ with the project's own compiler: poc_add_library STATIC,
#    OBJECT, and SHARED naming the class (PROCESS_CLASSES); SHARED without
#    it must fail to link, naming the file, the class and PROCESS_CLASSES.
# 2. consumer/: a program against the STATIC library installed by 1; with
#    the library's source gone, its link fails saying what to do.
# 3. project/ with CMAKE_CXX_COMPILER=poc++: a plain add_library linked by
#    poc_add_executable.
set -euo pipefail
package=$1 pocxx=$2 mpiexec=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
cp -r "$(dirname "$0")"/project "$(dirname "$0")"/consumer "$work"/
expected=$work/project/expected.txt

# Runs program $1 bare and under mpirun -n 2; each prints expected.txt.
check_program() {
  local exe=$1
  "$exe" >"$exe.bare.out"
  diff -u "$expected" "$exe.bare.out"
  "$mpiexec" -n 2 --oversubscribe --timeout 60 "$exe" >"$exe.mpi.out"
  diff -u "$expected" "$exe.mpi.out"
  echo "ok: $(basename "$exe")"
}

# Configures project $1 in folder $2 (more cache settings after them) and
# builds its default targets, or only POC_TARGET; the log in $2.log.
build() {
  local source=$1 dir=$2
  shift 2
  local targets=()
  [[ -n ${POC_TARGET:-} ]] && targets=(--target "$POC_TARGET")
  if ! { cmake -S "$source" -B "$dir" -G Ninja -Dpoc_DIR="$package" "$@" &&
    cmake --build "$dir" "${targets[@]}"; } >"$dir.log" 2>&1; then
    cat "$dir.log" >&2
    exit 1
  fi
}

build "$work/project" "$work/own"
for program in app_static app_object app_shared; do
  check_program "$work/own/$program"
done
if cmake --build "$work/own" --target app_shared_unnamed >"$work/unnamed.log" 2>&1; then
  echo "a shared library calling a class it was not told of linked into the program" >&2
  exit 1
fi
grep -qF "libpay_shared_unnamed.so calls methods of class 'Bank' ($work/project/pay.cpp:6, in pay)" \
  "$work/unnamed.log"
grep -qF "(in CMake: poc_add_library(... PROCESS_CLASSES Bank))" "$work/unnamed.log"
echo "ok: a shared library not naming the class fails the program's link"

cmake --install "$work/own" --prefix "$work/prefix" >/dev/null
build "$work/consumer" "$work/consumer-build" -DCMAKE_PREFIX_PATH="$work/prefix"
check_program "$work/consumer-build/app_installed"
rm "$work/project/pay.cpp"
rm "$work/consumer-build/app_installed"
if cmake --build "$work/consumer-build" >"$work/gone.log" 2>&1; then
  echo "a library whose source is gone linked into the program" >&2
  exit 1
fi
grep -qF "the file is not there; build $work/prefix/lib/libpay_static.a(pay.cpp.o) again" "$work/gone.log"
echo "ok: an installed library whose source is gone fails the program's link"
cp "$(dirname "$0")/project/pay.cpp" "$work/project/"

# CMake's implicit link folders come from the compiler's -v output, which
# poc++ does not pass on: name the architecture, so that packages are found.
POC_TARGET=app_plain build "$work/project" "$work/with-pocxx" -DCMAKE_CXX_COMPILER="$pocxx" \
  -DCMAKE_LIBRARY_ARCHITECTURE="$(gcc -print-multiarch)"
check_program "$work/with-pocxx/app_plain"
