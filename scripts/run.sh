#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), then runs the main job on the
# reference bf16 GEMM for gfx950 and gfx1201 (examples/): compile each to a
# code object with its assembly, LLVM IR and launch description in
# build/gemm/, print its resource report, and validate it on the CPU
# simulator (identity test bit-exact, random test against fp64) at several
# workgroups in both dimensions. Exits non-zero if anything fails.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"

out="$build/gemm"
mkdir -p "$out"
for chip in gfx950 gfx1201; do
  example="$root/examples/gemm_bf16_$chip.mlir"
  start=$(date +%s%N)
  "$build/bin/hk-compile" "$example" --chip="$chip" -o "$out/$chip.hsaco" \
    --asm="$out/$chip.s" --llvm-ir="$out/$chip.ll" --launch="$out/$chip.json"
  end=$(date +%s%N)
  echo "hk: $chip reference GEMM compiled in $(((end - start) / 1000000)) ms" \
    "-> $out/$chip.hsaco (assembly, LLVM IR, launch description beside it)"
  "$build/bin/hk-report" "$out/$chip.hsaco"
done

status=0
check() { "$build/bin/hk-run" "$@" || status=1; }
check "$root/examples/gemm_bf16_gfx950.mlir" --chip=gfx950 --size=512,512,512 --test=identity
check "$root/examples/gemm_bf16_gfx950.mlir" --chip=gfx950 --size=512,768,320 --test=random
check "$root/examples/gemm_bf16_gfx1201.mlir" --chip=gfx1201 --size=256,256,256 --test=identity
check "$root/examples/gemm_bf16_gfx1201.mlir" --chip=gfx1201 --size=384,256,448 --test=random
if [ "$status" -eq 0 ]; then
  echo "hk: both reference GEMMs compiled and validated on the simulator"
else
  echo "hk: validation FAILED" >&2
fi
exit "$status"
