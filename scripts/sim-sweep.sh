#!/usr/bin/env bash
# The long correctness run: both reference GEMMs on the simulator for every
# K tile count 1..32, at several workgroups in both dimensions (random test
# against fp64; double-buffered, direct-to-LDS, unrolled and ping-pong
# variants against synchronous, bit for bit, MXFP8 with ping-pong and the
# 4-wave fp8 kernel with interleave;
# kernels with direct-to-LDS loads run with both asynchronous completion
# orders), plus the
# identity test where N = K allows it; then a random-shape sweep: SHAPES
# (default 200) shapes per chip with M, N, K drawn from 1..1100 (seeded, so
# every run draws the same ones), after a fixed list of primes, sizes below
# one tile and K < 64, each shape on one of the four operand layouts and one
# of the chip's schedule variants in turn; then BATCHED (default 50) runs per
# chip of the batched examples with random shapes, batches, row padding,
# alpha, beta and bias; then ATTENTION (default 40) runs per chip and head
# dim of the attention kernels with random B, Hq, Hkv (GQA), Nq and Nkv from
# 1..700, causal or not, synchronous and double-buffered in turn (on gfx950
# half the double-buffered runs with the ping-pong schedule), BACKWARD
# (default 20) runs per chip and head dim of the attention backward kernels
# (Hq / Hkv of 1, 2 or 8, Nq and Nkv from 1..300, causal or not, against
# fp64 gradients), and the fp8 4-wave kernel at FP8 (default 10) random
# shapes. Exits non-zero if
# any run fails; prints one line per run and a summary per part.
#
#   scripts/sim-sweep.sh            # builds first if needed (scripts/setup.sh)
#   SKIP_SETUP=1 scripts/sim-sweep.sh
#   SHAPES_ONLY=1 SHAPES=50 BATCHED=10 scripts/sim-sweep.sh
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
tile_sweep() {
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
  # MXFP8 with ping-pong (block scales read a K tile ahead): same bits.
  run "$root/examples/gemm_mxfp8_gfx950.mlir" --chip=gfx950 \
    --size=512,512,$((tiles * 128)) --stages=2 --direct-lds \
    --schedule=ping-pong --test=compare \
    --compare="$root/examples/gemm_mxfp8_gfx950.mlir" --compare-stages=1 --seed=$tiles
  # The 4-wave fp8 kernel with the interleave schedule (one barrier per K
  # tile, its first operands read a tile ahead): same bits.
  run "$root/examples/gemm_fp8_4wave_gfx950.mlir" --chip=gfx950 \
    --size=256,256,$((tiles * 128)) --stages=2 --direct-lds \
    --schedule=interleave --test=compare \
    --compare="$root/examples/gemm_fp8_4wave_gfx950.mlir" --compare-stages=1 --seed=$tiles
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
}

# Any M, N, K: the variants each chip's shapes take in turn.
variants_gfx950=("" "--stages=2" "--stages=2 --direct-lds" \
  "--stages=2 --direct-lds --schedule=ping-pong" \
  "--stages=2 --direct-lds --schedule=ping-pong-hk" "--stages=2 --unroll=2")
variants_gfx1201=("" "--stages=2" "--stages=2 --unroll=2")
special="1,1,1 17,33,65 255,257,63 300,200,100 129,513,1000 1000,72,31 \
  7,13,1 2,3,5 31,37,41 97,101,103 257,263,127 509,521,7 1,1100,9 1100,1,8 \
  64,64,63 256,256,65 128,128,64 1031,1033,1039"
shape_sweep() {
  local chip=$1 count=$2
  local -n variants="variants_$chip"
  RANDOM=$3
  local shapes=($special) i=0
  while [ ${#shapes[@]} -lt "$count" ]; do
    shapes+=("$((RANDOM % 1100 + 1)),$((RANDOM % 1100 + 1)),$((RANDOM % 1100 + 1))")
  done
  local layouts=(nt nn tn tt)
  for shape in "${shapes[@]}"; do
    # Layouts in turn (nt is the reference example), each with the
    # variants in turn; the K-major layouts skip the ping-pong schedules,
    # which refuse their copies.
    local layout=${layouts[i % 4]} example="$root/examples/gemm_bf16_$chip.mlir"
    local flags=${variants[(i / 4) % ${#variants[@]}]}
    if [ "$layout" != nt ]; then
      example="$root/examples/gemm_bf16_${chip}_$layout.mlir"
      flags=${flags/--schedule=ping-pong-hk/}
      flags=${flags/--schedule=ping-pong/}
    fi
    # shellcheck disable=SC2086
    run "$example" --chip=$chip --layout=$layout --size=$shape \
      --test=random --seed=$i $flags
    i=$((i + 1))
  done
}

# The batched examples with strides and the epilogue: random shapes,
# batches of 1 to 3, row padding of 0 to 9 elements, alpha, beta (0 reads no
# C) and the bias in turn, with the chip's variants in turn.
batched_sweep() {
  local chip=$1 count=$2
  local -n variants="variants_$chip"
  RANDOM=$3
  local alphas=(1 0.5 -2 1.25) betas=(0 1 0.5 -1) biases=(random zeros)
  local i
  for ((i = 0; i < count; i++)); do
    local shape="$((RANDOM % 700 + 1)),$((RANDOM % 700 + 1)),$((RANDOM % 700 + 1))"
    # shellcheck disable=SC2086
    run "$root/examples/gemm_bf16_batched_$chip.mlir" --chip=$chip \
      --size=$shape --batch=$((RANDOM % 3 + 1)) --pad=$((RANDOM % 10)) \
      --alpha=${alphas[i % 4]} --beta=${betas[(i / 4) % 4]} \
      --bias=${biases[i % 2]} --test=random --seed=$i \
      ${variants[i % ${#variants[@]}]}
  done
}

# The attention kernels: random heads (Hq a multiple of Hkv), sequence
# lengths with tails, causal or not, the pipelines in turn.
attention_sweep() {
  local chip=$1 d=$2 count=$3
  RANDOM=$4
  local fast="--stages=2"
  [ "$chip" = gfx950 ] && fast="--stages=2 --direct-lds"
  local i
  for ((i = 0; i < count; i++)); do
    local hkv=$((RANDOM % 3 + 1)) group=$((RANDOM % 3 + 1))
    local sizes="$((RANDOM % 2 + 1)),$((hkv * group)),$hkv,$((RANDOM % 700 + 1)),$((RANDOM % 700 + 1)),$d"
    local flags=""
    [ $((i % 2)) -eq 1 ] && flags=$fast
    # gfx950: every other double-buffered run is the ping-pong schedule.
    [ "$chip" = gfx950 ] && [ $((i % 2)) -eq 1 ] && [ $(((i / 4) % 2)) -eq 1 ] &&
      flags="--stages=2 --direct-lds --schedule=ping-pong"
    [ $(((i / 2) % 2)) -eq 1 ] && flags="$flags --causal"
    # shellcheck disable=SC2086
    run "$root/examples/attention_fwd_bf16_d${d}_$chip.mlir" --chip=$chip \
      --attention=$sizes --test=random --seed=$i $flags
  done
}

# The attention backward kernels: random GQA groups, tails, causal or not.
backward_sweep() {
  local chip=$1 d=$2 count=$3
  RANDOM=$4
  local groups=(1 2 8) i
  for ((i = 0; i < count; i++)); do
    local hkv=$((RANDOM % 2 + 1)) group=${groups[RANDOM % 3]}
    local sizes="$((RANDOM % 2 + 1)),$((hkv * group)),$hkv,$((RANDOM % 300 + 1)),$((RANDOM % 300 + 1)),$d"
    local flags=""
    [ $((i % 2)) -eq 1 ] && flags="--causal"
    # Every size on the fused kernels and the deterministic pair.
    local form
    for form in "" _deterministic; do
      # shellcheck disable=SC2086
      run "$root/examples/attention_bwd_bf16_d${d}_${chip}$form.mlir" --chip=$chip \
        --attention-bwd=$sizes --seed=$i $flags
    done
  done
}

fp8_sweep() {
  local count=$1
  RANDOM=$2
  local dtypes=(e4m3 e5m2) i
  for ((i = 0; i < count; i++)); do
    # Every other run with the interleave schedule.
    local schedule=""
    [ $((i % 2)) -eq 1 ] && schedule="--schedule=interleave"
    # shellcheck disable=SC2086
    run "$root/examples/gemm_fp8_4wave_gfx950.mlir" --chip=gfx950 \
      --size=$((RANDOM % 700 + 1)),$((RANDOM % 700 + 1)),$((RANDOM % 1100 + 1)) \
      --dtype=${dtypes[i % 2]} --stages=2 --direct-lds $schedule --test=random --seed=$i
  done
}

if [ -z "${SHAPES_ONLY:-}" ]; then
  tile_sweep
  echo "K tile sweep: $passed passed, $failed failed"
fi
total_passed=$passed total_failed=$failed
passed=0 failed=0
shape_sweep gfx950 "${SHAPES:-200}" 950
shape_sweep gfx1201 "${SHAPES:-200}" 1201
echo "random shapes (${SHAPES:-200} per chip): $passed passed, $failed failed"
total_passed=$((passed + total_passed)) total_failed=$((failed + total_failed))
passed=0 failed=0
batched_sweep gfx950 "${BATCHED:-50}" 9500
batched_sweep gfx1201 "${BATCHED:-50}" 12010
echo "batched with epilogue (${BATCHED:-50} per chip): $passed passed, $failed failed"
total_passed=$((passed + total_passed)) total_failed=$((failed + total_failed))
passed=0 failed=0
for chip in gfx950 gfx1201; do
  for d in 64 128; do
    attention_sweep $chip $d "${ATTENTION:-40}" $((d * 100 + ${#chip}))
  done
done
echo "attention (${ATTENTION:-40} per chip and head dim): $passed passed, $failed failed"
total_passed=$((passed + total_passed)) total_failed=$((failed + total_failed))
passed=0 failed=0
for chip in gfx950 gfx1201; do
  for d in 64 128; do
    backward_sweep $chip $d "${BACKWARD:-20}" $((d * 10 + ${#chip}))
  done
done
echo "attention backward (${BACKWARD:-20} per chip and head dim): $passed passed, $failed failed"
total_passed=$((passed + total_passed)) total_failed=$((failed + total_failed))
passed=0 failed=0
fp8_sweep "${FP8:-10}" 814
echo "fp8 4-wave (${FP8:-10} shapes): $passed passed, $failed failed"
passed=$((passed + total_passed)) failed=$((failed + total_failed))
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
