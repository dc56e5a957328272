#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), then runs the main job on the
# reference bf16 GEMM for gfx950 and gfx1201 (examples/), each with its
# fastest correct schedule (gfx950: HipKittens' 8-wave ping-pong with
# direct-to-LDS fills and derived partial waits; gfx1201: double-buffered,
# unrolled by 2 so slots are constants, fills through raw buffer loads):
# compile it to a code object with its assembly, LLVM IR and launch
# description in build/gemm/, print its resource report and its K loop's
# instruction mix (for gfx950 also llvm-mca's cycles per K tile next to
# HipKittens' own loop, ../shared/reference/, when present), and validate it
# on the
# CPU simulator (identity test bit-exact, random test against fp64, and the
# same bits as the synchronous kernel) at several workgroups in both
# dimensions. Exits non-zero if anything fails.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"

out="$build/gemm"
mkdir -p "$out"
schedule() {
  case "$1" in
    gfx950) echo "--stages=2 --direct-lds --schedule=ping-pong" ;;
    gfx1201) echo "--stages=2 --unroll=2" ;;
  esac
}
for chip in gfx950 gfx1201; do
  example="$root/examples/gemm_bf16_$chip.mlir"
  start=$(date +%s%N)
  # shellcheck disable=SC2046
  "$build/bin/hk-compile" "$example" --chip="$chip" $(schedule $chip) \
    -o "$out/$chip.hsaco" --asm="$out/$chip.s" --llvm-ir="$out/$chip.ll" \
    --launch="$out/$chip.json"
  end=$(date +%s%N)
  echo "hk: $chip reference GEMM ($(schedule $chip)) compiled in" \
    "$(((end - start) / 1000000)) ms -> $out/$chip.hsaco (assembly, LLVM IR," \
    "launch description beside it)"
  "$build/bin/hk-report" "$out/$chip.hsaco" --asm="$out/$chip.s" \
    --loop-body="$out/$chip.loop.s"
done

# llvm-mca (one wave) on gfx950's loop and HipKittens' in the same run; the
# ping-pong loop body covers 2 K tiles, as HipKittens' does.
reference="$root/../shared/reference/hipkittens-gfx950-loop.s"
mca_cycles() {
  /usr/lib/llvm-22/bin/llvm-mca -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 \
    -iterations=100 "$1" | awk '/^Total Cycles:/ {print $3 / 200}'
}
if [ -f "$reference" ]; then
  hk=$(mca_cycles "$out/gfx950.loop.s")
  theirs=$(mca_cycles "$reference")
  echo "hk: gfx950 main loop, llvm-mca: $hk cycles per K tile; HipKittens'" \
    "loop: $theirs; ratio $(awk -v a="$hk" -v b="$theirs" 'BEGIN {printf "%.3f", a / b}')"
fi

status=0
check() { "$build/bin/hk-run" "$@" || status=1; }
for chip in gfx950 gfx1201; do
  example="$root/examples/gemm_bf16_$chip.mlir"
  # shellcheck disable=SC2046
  set -- "$example" --chip=$chip $(schedule $chip)
  if [ $chip = gfx950 ]; then
    check "$@" --size=512,512,512 --test=identity
    check "$@" --size=512,768,320 --test=random
    check "$@" --size=512,512,448 --test=compare --compare="$example" --compare-stages=1
    check "$@" --size=768,512,192 --test=compare --compare="$example" --compare-stages=1
  else
    check "$@" --size=256,256,256 --test=identity
    check "$@" --size=384,256,448 --test=random
    check "$@" --size=256,384,320 --test=compare --compare="$example" --compare-stages=1
  fi
done
if [ "$status" -eq 0 ]; then
  echo "hk: both reference GEMMs compiled and validated on the simulator"
else
  echo "hk: validation FAILED" >&2
fi
exit "$status"
