# Sourced by run.sh and instructions.sh once they have set $here (this
# folder) and $build: the repository's root, the optimisation level
# ($POC_BENCH_OPT, default -O2), a work directory removed on exit that
# holds poc++'s cache of precompiled headers (empty at first), and the two
# compiles both scripts compare.
root=$(cd "$here/../.." && pwd)
opt=${POC_BENCH_OPT:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export POC_PCH_CACHE="$work/pch-cache"
mpi_flags=$(mpicxx --showme:compile)
includes="-I$root/apps/fft3d/core/include -I$root/stdlib/array/include -I$root/stdlib/pagedevice/include"

# compile_plain SOURCE [WRAPPER...]: the baseline, `clang++-19 -c` of SOURCE
# as plain C++ (its `start` keywords removed, <poc/poc.hpp> included), run
# through WRAPPER (a measuring function, say).
compile_plain() {
  plain_source=$1
  shift
  sed -E 's/(^[[:space:]]*|=[[:space:]]*)start /\1/' "$plain_source" > "$work/plain.cpp"
  # shellcheck disable=SC2086 # $mpi_flags and $includes are lists of flags
  "$@" clang++-19 -std=c++20 "$opt" -isystem "$root/runtime/include" $mpi_flags $includes \
    -iquote "$(dirname "$plain_source")" -include poc/poc.hpp -c "$work/plain.cpp" \
    -o "$work/plain.o"
}

# compile_poc SOURCE OBJECT [WRAPPER...]: `poc++ -c` of SOURCE into OBJECT,
# run through WRAPPER.
compile_poc() {
  poc_source=$1
  poc_object=$2
  shift 2
  # shellcheck disable=SC2086
  "$@" "$build/compiler/poc++" "$opt" $includes -c "$poc_source" -o "$poc_object"
}
