#!/usr/bin/env bash
# README command 1: install dependencies, build, and run the main demo:
# the paper's 3D FFT (apps/fft3d), compiled by poc++, on a small array held by
# page-server processes, transformed by a group of FFT3 processes, and checked
# against FFTW's single-process transform.
# Idempotent and fast when everything is already built.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
"$root/scripts/setup-deps.sh"

jobs=${POC_JOBS:-$(nproc)}
# The flags of scripts/test.sh, which shares this build (line tables only).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
      -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" >/dev/null
# poc_package: everything `cmake --install build --prefix P` carries.
cmake --build build -j "$jobs" --target poc++ fft3d poc_package

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
args=(--size 64 --page 16 --servers 4 --ffts 2 --verify)
echo "+ mpirun -n 4 build/apps/fft3d/fft3d ${args[*]}"
exec mpirun -n 4 --oversubscribe --timeout 300 build/apps/fft3d/fft3d "${args[@]}"
