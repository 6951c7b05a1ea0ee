#!/usr/bin/env bash
# The fft3d benchmarks (manual: minutes and gigabytes, not part of ctest).
# Every ratio is against a baseline measured in the same run.
#
#   bench/fft3d/run.sh BUILD_DIR incore    [N...]   fft3d in-core vs FFTW-MPI and threaded FFTW
#                                                   (default N: 256 512)
#   bench/fft3d/run.sh BUILD_DIR outofcore DIR      fft3d out-of-core (1024x1024x512) vs the disk
#   bench/fft3d/run.sh BUILD_DIR prefetch  DIR      out-of-core with server prefetch on vs off
#   bench/fft3d/run.sh BUILD_DIR record    DIR [K...]  out-of-core, a durable progress record
#                                                   every K lines (default 1 8) vs only at the
#                                                   end of each pass
#
# Environment: F (FFT processes, default 2), S (page servers, default 2),
# RANKS (mpirun -n for fft3d besides one rank, default F+1), ROUNDS (in-core rounds,
# default 3), PASSES (fft3d's passes per transform in core, default "2 3"), THREADS
# (threads of the threaded FFTW baselines, default nproc), PAGE (page edge, default 32 in-core,
# 64 out-of-core), OOC_SIZE (default 1024x1024x512), OUT (CSV/PNG dir, default .),
# PYTHON (an interpreter with matplotlib, default the system's /usr/bin/python3).
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR incore|outofcore|prefetch|record ...}
what=${2:?usage: run.sh BUILD_DIR incore|outofcore|prefetch|record ...}
shift 2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
F=${F:-2}
S=${S:-2}
RANKS=${RANKS:-$((F + 1))}
OUT=${OUT:-.}
PYTHON=${PYTHON:-/usr/bin/python3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi=(mpirun --oversubscribe --mca btl self,vader,tcp)
fft3d=$build/apps/fft3d/fft3d
baseline=$build/bench/fft3d/fftw_baseline
disk=$build/bench/fft3d/disk_bandwidth

# seconds of the transform from fft3d's "total:" line
fft3d_seconds() { sed -n 's/^total: .* in \([0-9.e+-]*\) sec:.*/\1/p'; }
# MB/sec of fft3d's read+write rate
fft3d_rw() { sed -n 's/^total: .*transformed, \([0-9.e+-]*\) MB\/sec read+write.*/\1/p'; }

case $what in
incore)
  sizes=("$@")
  ((${#sizes[@]})) || sizes=(256 512)
  page=${PAGE:-32}
  # ROUNDS alternated rounds; in each, every configuration runs once:
  #   fft3d in one rank and in RANKS ranks, in each of PASSES passes per
  #   transform (pages 32^3, FFTW_MEASURE);
  #   FFTW-MPI on F ranks (MEASURE, output transposed), best of 3 executions;
  #   FFTW-MPI in one rank with THREADS threads (the same plan, threaded);
  #   FFTW in one process with THREADS threads (fftw_plan_dft_3d, MEASURE).
  # Each configuration's median round counts. The logs (with the per-pass
  # report) and CSVs kept are those of fft3d's last round.
  rounds=${ROUNDS:-3}
  threads=${THREADS:-$(nproc)}
  read -r -a passes <<<"${PASSES:-2 3}"
  # A threaded process must not be bound to one core (Open MPI binds each
  # rank to a core when the job has no more ranks than cores).
  one=("${mpi[@]}" -n 1 --bind-to none)
  median() { printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }
  ratio() { "$PYTHON" -c "print(f'{$1/$2:.2f}x')"; }
  best_of() { sed -n 's/.*best \([0-9.e+-]*\) sec.*/\1/p'; }
  ours=()
  for r in 1 "$RANKS"; do
    for p in "${passes[@]}"; do ours+=("fft3d_np${r}_p$p"); done
  done
  theirs=("fftw_mpi_np$F" "fftw_mpi_np1_t$threads" "fftw_threads_t$threads")
  for n in "${sizes[@]}"; do
    declare -A times=()
    for _ in $(seq "$rounds"); do
      for c in "${ours[@]}"; do
        r=${c#fft3d_np} r=${r%_p*} p=${c##*_p}
        "${mpi[@]}" -n "$r" "$fft3d" --size "$n" --page "$page" --servers "$S" --ffts "$F" \
          --passes "$p" --plan measure --quiet --prefetch off \
          --csv "$OUT/fft3d-incore-$n-np$r-p$p.csv" >"$OUT/fft3d-incore-$n-np$r-p$p.log"
        times[$c]+="$(fft3d_seconds <"$OUT/fft3d-incore-$n-np$r-p$p.log") "
      done
      times[fftw_mpi_np$F]+="$("${mpi[@]}" -n "$F" "$baseline" "$n" "$n" "$n" 3 measure \
        transposed 1 | best_of) "
      times[fftw_mpi_np1_t$threads]+="$("${one[@]}" "$baseline" "$n" "$n" "$n" 3 measure \
        transposed "$threads" | best_of) "
      times[fftw_threads_t$threads]+="$("${one[@]}" "$baseline" "$n" "$n" "$n" 3 measure \
        threads "$threads" | best_of) "
    done
    echo "$n^3, load after the last round: $(uptime | sed 's/.*load average: //')"
    declare -A med=()
    printf '  %-20s %-48s %s\n' configuration "seconds (rounds)" median
    for c in "${ours[@]}" "${theirs[@]}"; do
      # shellcheck disable=SC2086
      med[$c]=$(median ${times[$c]})
      printf '  %-20s %-48s %s\n' "$c" "${times[$c]}" "${med[$c]}"
    done
    printf '  %-20s' "median ratio"
    printf ' %-22s' "${theirs[@]}"
    echo
    for c in "${ours[@]}"; do
      printf '  %-20s' "$c"
      for b in "${theirs[@]}"; do printf ' %-22s' "$(ratio "${med[$c]}" "${med[$b]}")"; done
      echo
      r=${c#fft3d_np} r=${r%_p*} p=${c##*_p}
      "$PYTHON" "$here/plot.py" "$OUT/fft3d-incore-$n-np$r-p$p.csv" \
        "$OUT/fft3d-incore-$n-np$r-p$p.png" "in-core $n^3, mpirun -n $r, $p passes"
    done
    unset times med
  done
  ;;
outofcore | prefetch)
  dir=${1:?out-of-core needs a directory}
  size=${OOC_SIZE:-1024x1024x512}
  page=${PAGE:-64}
  IFS=x read -r n1 n2 n3 <<<"$size"
  bytes=$((n1 * n2 * n3 * 16))
  pagebytes=$((page * page * page * 16))
  disk_line=$("$disk" "$dir" "$bytes" "$pagebytes")
  echo "$disk_line"
  limit=$(sed -n 's/.*read+write \([0-9.e+-]*\) MB\/sec.*/\1/p' <<<"$disk_line")
  modes=(on)
  [[ $what == prefetch ]] && modes=(on off)
  printf '%-10s %-12s %-16s %-16s %s\n' prefetch fft3d_sec fft3d_rw_MB/s disk_rw_MB/s fraction
  for m in "${modes[@]}"; do
    log=$OUT/fft3d-ooc-prefetch-$m.log
    "${mpi[@]}" -n "$RANKS" "$fft3d" --size "$size" --page "$page" --servers "$S" --ffts "$F" \
      --out-of-core "$dir" --quiet --prefetch "$m" --csv "$OUT/fft3d-ooc-prefetch-$m.csv" >"$log"
    rm -f "$dir"/fft3d-pages-*
    t=$(fft3d_seconds <"$log")
    rw=$(fft3d_rw <"$log")
    printf '%-10s %-12s %-16s %-16s %s\n' "$m" "$t" "$rw" "$limit" \
      "$("$PYTHON" -c "print(f'{$rw/$limit*100:.0f}%')")"
    "$PYTHON" "$here/plot.py" "$OUT/fft3d-ooc-prefetch-$m.csv" "$OUT/fft3d-ooc-prefetch-$m.png" \
      "out-of-core $size, prefetch $m"
  done
  ;;
record)
  # The cost of restartability at line granularity: the baseline records
  # only at the end of each pass (K larger than any pass), in the same run.
  dir=${1:?record needs a directory}
  shift
  ks=("$@")
  ((${#ks[@]})) || ks=(1 8)
  size=${OOC_SIZE:-256x256x256}
  page=${PAGE:-32}
  export POC_STORE=$dir/store
  run_ooc() {
    "${mpi[@]}" -n "$RANKS" "$fft3d" --size "$size" --page "$page" --servers "$S" --ffts "$F" \
      --out-of-core "$dir" --quiet --run bench-record --record-every "$1" | fft3d_seconds
  }
  # Best of three, the configurations interleaved, after a run that
  # allocates the page files (the first run on a fresh file is slower).
  run_ooc 1000000000 >/dev/null
  declare -A best
  for rep in 1 2 3; do
    for k in 1000000000 "${ks[@]}"; do
      t=$(run_ooc "$k")
      best[$k]=$("$PYTHON" -c "print(min($t, ${best[$k]:-$t}))")
    done
  done
  base=${best[1000000000]}
  printf '%-14s %-12s %-16s %s\n' record_every fft3d_sec pass_end_sec ratio
  for k in "${ks[@]}"; do
    printf '%-14s %-12s %-16s %s\n' "$k" "${best[$k]}" "$base" \
      "$("$PYTHON" -c "print(f'{${best[$k]}/$base:.2f}x')")"
  done
  rm -rf "$dir"/fft3d-pages-* "$POC_STORE"
  ;;
*)
  echo "run.sh: unknown benchmark '$what' (incore, outofcore, prefetch or record)" >&2
  exit 2
  ;;
esac
