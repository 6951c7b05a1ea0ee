#!/usr/bin/env bash
# Installs poc++'s build and test dependencies from Debian bookworm packages.
# Idempotent: runs `apt-get update` once and installs only what is missing.
# Works as root or through sudo. Set POC_BENCH_DEPS=1 to also install the
# libraries used only by bench/ for comparisons (cereal, gRPC, BuDDy, TBB).
set -euo pipefail

packages=(
  clang-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev llvm-19-tools libclang-rt-19-dev
  libopenmpi-dev openmpi-bin
  libfftw3-dev libfftw3-mpi-dev
  libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev
  cmake ninja-build pkg-config python3 clang-format-19 gdb
)
if [[ "${POC_BENCH_DEPS:-0}" == 1 ]]; then
  packages+=(libcereal-dev libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev
             protobuf-compiler libbdd-dev libtbb-dev python3-matplotlib)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
echo "setup-deps: installing ${missing[*]}" >&2
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
