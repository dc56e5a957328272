#!/usr/bin/env bash
# The C API against hk-compile on every example at every schedule its chip
# offers (test/CAPI/capi.test runs each at its fastest only), and every kernel
# hk-linalg-to-kernels outlines from a host program: prints one line
# per pair and "N same, N refused by both, N different"; exits 1 on any
# difference. Needs a build (scripts/setup.sh).
#
#   scripts/capi-matrix.sh [build dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$root/test/CAPI/Inputs/compare.py" "$build/bin" "$work" \
  --examples "$root/examples" --all-schedules
# Every kernel hk-linalg-to-kernels outlines from the integration test's
# host program, on both chips, through hkCompileGpuModules.
for chip in gfx950 gfx1201; do
  "$build/bin/hk-opt" --hk-linalg-to-kernels=chip=$chip \
    "$root/test/Integration/Inputs/linalg-matmuls.mlir" -o "$work/host-$chip.mlir" 2>/dev/null
  python3 "$root/test/CAPI/Inputs/compare.py" "$build/bin" "$work/$chip" \
    --host "$work/host-$chip.mlir" $chip
done
