#!/usr/bin/env bash
# Separate compilation and plain C++ (docs/compiler.md section 8, "Separate compilation").
#
#   run.sh POCXX CLANGXX SOURCE_DIR WORK_DIR
#
# 1. The five-file project in project/ (a class in its own files, calls in
#    files that create nothing, a template instantiated in another file, a
#    static library built first) is compiled file by file with poc++ in two
#    orders, and under CMake with Ninja and with Makefiles
#    (CMAKE_CXX_COMPILER=poc++); each program runs bare and under mpirun at
#    -n 1 to 4 and prints project/expected.txt.
# 2. Each program in plain/ is built by poc++ and by clang++: the two
#    executables are byte for byte the same (no runtime, no MPI, no start-up
#    code), with the same output and exit status.
set -euo pipefail
pocxx=$1 clangxx=$2 source_dir=$3 work=$4
project=$source_dir/project
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work"
mkdir -p "$work"

# Runs $2 bare and at -n 1..4; each output must be project/expected.txt.
check_program() {
  local name=$1 exe=$2
  "$exe" >"$work/$name.bare.out"
  diff -u "$project/expected.txt" "$work/$name.bare.out"
  for n in 1 2 3 4; do
    timeout 120 mpirun --oversubscribe -n "$n" "$exe" >"$work/$name.np$n.out"
    diff -u "$project/expected.txt" "$work/$name.np$n.out"
  done
  echo "ok: $name"
}

# By hand, in the given order; the library as a path or as -lledger.
by_hand() {
  local name=$1 library_flag=$2
  shift 2
  local dir=$work/$name
  mkdir -p "$dir"
  for file in "$@"; do
    "$pocxx" -O2 -c "$project/$file.cpp" -o "$dir/$file.o"
  done
  ar rcs "$dir/libledger.a" "$dir/transfer.o"
  local lib=$dir/libledger.a
  [[ $library_flag == -l ]] && lib="-L$dir -lledger"
  # shellcheck disable=SC2086 # $lib is one path or two flags
  "$pocxx" "$dir/main.o" "$dir/pay.o" "$dir/audit.o" "$dir/bank.o" $lib -o "$dir/bank_app"
  check_program "$name" "$dir/bank_app"
}
by_hand callers_first path transfer pay audit bank main
by_hand main_first -l main bank audit pay transfer

for generator in Ninja "Unix Makefiles"; do
  dir=$work/cmake-${generator// /-}
  cmake -S "$project" -B "$dir" -G "$generator" -DCMAKE_CXX_COMPILER="$pocxx" >"$dir.log"
  cmake --build "$dir" >>"$dir.log"
  check_program "cmake-${generator// /-}" "$dir/bank_app"
done

# The same program as one command.
"$pocxx" "$project"/{main,pay,audit,bank,transfer}.cpp -o "$work/one_command"
check_program one_command "$work/one_command"

for source in "$source_dir"/plain/*.cpp; do
  name=$(basename "$source" .cpp)
  for flags in "" "-O2 -std=c++17"; do
    # shellcheck disable=SC2086 # $flags is a list of flags
    "$pocxx" $flags "$source" -o "$work/$name.poc"
    # shellcheck disable=SC2086
    "$clangxx" $flags "$source" -o "$work/$name.clang"
    cmp "$work/$name.poc" "$work/$name.clang"
    status_poc=0 status_clang=0
    "$work/$name.poc" >"$work/$name.poc.out" || status_poc=$?
    "$work/$name.clang" >"$work/$name.clang.out" || status_clang=$?
    [[ $status_poc == "$status_clang" ]]
    diff -u "$work/$name.clang.out" "$work/$name.poc.out"
    echo "ok: plain $name ${flags:-(no flags)}: same executable, output and status $status_poc"
  done
done
