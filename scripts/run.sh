#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), then runs the main job on the
# reference bf16 GEMM for gfx950 and gfx1201 (examples/): compile each to a
# code object with its assembly, LLVM IR and launch description in
# build/gemm/, and print its resource report.
#
# Numerical validation (the CPU simulator and HIP backends) is the next step
# of the project (issue 4); until it lands this script says so rather than
# pretending.
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
echo "hk: validating results (CPU simulator / HIP) is not implemented yet"
