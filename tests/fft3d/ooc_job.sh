# Sourced by the out-of-core test scripts (restart_test.sh, keep_test.sh):
#   ooc_job NAME EXE MPIEXEC NP RUN [fft3d options...]
# makes a temporary directory $dir (removed at exit) for the page files, an
# object store of its own ($POC_STORE = $dir/store) and Open MPI's session
# files, and sets run=(the mpirun command of an out-of-core fft3d job named
# RUN there).
# fail MESSAGE prints "NAME: FAIL: MESSAGE" and exits 1.
ooc_job() {
  test_name=$1
  local exe=$2 mpiexec=$3 np=$4 name=$5
  shift 5
  dir=$(mktemp -d "${TMPDIR:-/tmp}/fft3d-$test_name-XXXXXX")
  trap 'rm -rf "$dir"' EXIT
  export POC_STORE=$dir/store
  # Open MPI's session files (8 MB a job) go there too: a job killed with
  # -9 cannot remove its own, and they would pile up in /tmp.
  export OMPI_MCA_orte_tmpdir_base=$dir
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  run=("$mpiexec" -n "$np" --oversubscribe --mca btl self,vader,tcp "$exe"
       --out-of-core "$dir" --run "$name" "$@")
}

fail() {
  echo "$test_name: FAIL: $*" >&2
  exit 1
}
