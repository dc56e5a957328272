#!/usr/bin/env bash
# The long correctness run: both reference GEMMs on the simulator for every
# K tile count 1..32, at several workgroups in both dimensions (random test
# against fp64; double-buffered, direct-to-LDS, unrolled and ping-pong
# variants against synchronous, bit for bit; kernels with direct-to-LDS
# loads run with both asynchronous completion orders), plus the
# identity test where N = K allows it. Exits non-zero
# if any run fails; prints one line per run and a summary.
#
#   scripts/sim-sweep.sh            # builds first if needed (scripts/setup.sh)
#   SKIP_SETUP=1 scripts/sim-sweep.sh
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
[ -n "${SKIP_SETUP:-}" ] || "$root/scripts/setup.sh" >/dev/null || exit 2

passed=0 failed=0
run() {
  if out=$("$build/bin/hk-run" "$@" 2>&1); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "$out"
  fi
  echo "$(echo "$out" | grep -E '^(PASS|FAIL)$') $*"
}
for tiles in $(seq 1 32); do
  k=$((tiles * 64))
  run "$root/examples/gemm_bf16_gfx950.mlir" --chip=gfx950 --size=512,256,$k --test=random --seed=$tiles
  run "$root/examples/gemm_bf16_gfx1201.mlir" --chip=gfx1201 --size=256,384,$k --test=random --seed=$tiles
  # Double-buffered (stages = 2): the same bits as synchronous (stages = 1).
  for chip in gfx950 gfx1201; do
    run "$root/examples/gemm_bf16_$chip.mlir" --chip=$chip --size=256,512,$k \
      --stages=2 --test=compare --compare="$root/examples/gemm_bf16_$chip.mlir" \
      --compare-stages=1 --seed=$tiles
  done
  # gfx950's HipKittens configuration (direct-to-LDS fill, MMA priority), and
  # the same unrolled by 2 (rolled remainder on odd counts): same bits again.
  for unroll in 1 2; do
    run "$root/examples/gemm_bf16_gfx950.mlir" --chip=gfx950 --size=256,512,$k \
      --stages=2 --direct-lds --mma-priority=1 --unroll=$unroll --test=compare \
      --compare="$root/examples/gemm_bf16_gfx950.mlir" --compare-stages=1 --seed=$tiles
  done
  # HipKittens' 8-wave ping-pong schedule (2 x 2 workgroups) and with
  # HipKittens' placement of reads and fills: same bits.
  run "$root/examples/gemm_bf16_gfx950.mlir" --chip=gfx950 --size=512,512,$k \
    --stages=2 --direct-lds --schedule=ping-pong --test=compare \
    --compare="$root/examples/gemm_bf16_gfx950.mlir" --compare-stages=1 --seed=$tiles
  run "$root/examples/gemm_bf16_gfx950.mlir" --chip=gfx950 --size=256,512,$k \
    --stages=2 --direct-lds --schedule=ping-pong-hk --test=compare \
    --compare="$root/examples/gemm_bf16_gfx950.mlir" --compare-stages=1 --seed=$tiles
  # gfx1201's main-job kernel, unrolled by 2 (rolled remainder).
  run "$root/examples/gemm_bf16_gfx1201.mlir" --chip=gfx1201 --size=256,512,$k \
    --stages=2 --unroll=2 --test=compare \
    --compare="$root/examples/gemm_bf16_gfx1201.mlir" --compare-stages=1 --seed=$tiles
done
run "$root/examples/gemm_bf16_gfx950.mlir" --chip=gfx950 --size=512,1024,1024 --test=identity
run "$root/examples/gemm_bf16_gfx1201.mlir" --chip=gfx1201 --size=384,2048,2048 --test=identity
run "$root/examples/gemm_bf16_gfx950.mlir" --chip=gfx950 --size=512,1024,1024 --test=identity \
  --stages=2 --direct-lds --mma-priority=1
run "$root/examples/gemm_bf16_gfx1201.mlir" --chip=gfx1201 --size=384,2048,2048 --test=identity --stages=2
run "$root/examples/gemm_bf16_gfx950.mlir" --chip=gfx950 --size=512,1024,1024 --test=identity \
  --stages=2 --direct-lds --schedule=ping-pong
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
