#!/usr/bin/env bash
# Installs what hk needs from Debian 12 (only the missing packages), then
# configures and builds hk in build/ with Ninja and ccache.
#
#   scripts/setup.sh            # install, configure, build
#   BUILD_DIR=out scripts/setup.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

packages=(cmake ninja-build g++ ccache python3 libgtest-dev
          llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22)

. "$root/scripts/common.sh"
install_missing "${packages[@]}" || exit 1

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir
fi
ninja -C "$build" -j"$(nproc)"
