#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), then runs the main job on the
# reference bf16 GEMM for gfx950 and gfx1201 (examples/), each with its
# fastest correct schedule (gfx950: whichever of HipKittens' 8-wave
# ping-pong, with direct-to-LDS fills and derived partial waits, and the
# double-buffered loop with direct fills and raised priority unrolled by 2
# llvm-mca finds faster, both measured next to HipKittens' own loop from
# the HipKittens reference loops in $HK_REFERENCE_DIR when present, see
# docs/Hardware.md#reference-loops; gfx1201: double-buffered, unrolled by 2
# so slots are constants, fills through raw buffer loads whose LDS stores
# wait for the K tile's barrier, --defer-fill-stores): compile it to a
# code object with its assembly, LLVM IR and launch description in
# build/gemm/, print its resource report and its K loop's instruction mix,
# and validate it on the
# CPU simulator (identity test bit-exact, random test against fp64, and the
# same bits as the synchronous kernel) at several workgroups in both
# dimensions and at sizes that are not tile multiples; then the batched
# kernels with padded rows and the epilogue, the fp8 and MXFP8 kernels, and
# the FlashAttention forward kernels (d 64 and 128, both chips, double
# buffered, on gfx950 with direct fills and unrolled by 2: compiled to
# build/attention/ with their reports, gfx950's K/V loops measured next to
# HipKittens', then issue 13's checks, causal and not, GQA, tails), and
# the attention backward kernels (dQ, dK, dV: both chips and head dims,
# compiled to build/attention/ with their reports, checked against fp64
# gradients). Exits non-zero if anything fails.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"

out="$build/gemm"
mkdir -p "$out"
mca=/usr/lib/llvm-22/bin/llvm-mca
# HipKittens' loops to measure against: $HK_REFERENCE_DIR, by default the
# reference directory beside the checkout; without them the comparison is
# skipped, and said so.
reference_dir=${HK_REFERENCE_DIR:-$root/../shared/reference}
# llvm-mca (one wave) cycles per tile of a loop body covering $3 tiles
# (default 2). llvm-mca 22.1.8 hangs on some v_permlane*_swap right after
# an s_nop, so each swap is measured as two v_mov_b32 on its registers.
# With $4 = fp8, every fp8 MFMA is measured at its real cost: the model
# charges v_mfma(_scale)_f32_16x16x128_f8f6f4 4 cycles, as a bf16 16x16x32
# with a quarter of its MACs, and fp8 runs at twice bf16's rate per MAC, so
# each becomes an 8-cycle v_mfma_f32_16x16x4_f32 on the same accumulators,
# reading the last register of each operand (docs/Hardware.md#fp8-rate).
mca_cycles() {
  local rate=()
  if [ "${4:-}" = fp8 ]; then
    grep -q 'f32_16x16x128_f8f6f4' "$1" || { echo "hk: $1 has no fp8 MFMA" >&2; return 1; }
    rate=(-e 's/v_mfma(_scale)?_f32_16x16x128_f8f6f4 ([av]\[[0-9]+:[0-9]+\]), ([av])\[[0-9]+:([0-9]+)\], ([av])\[[0-9]+:([0-9]+)\], ([av]\[[0-9]+:[0-9]+\])[^;]*/v_mfma_f32_16x16x4_f32 \2, \3\4, \5\6, \7 /')
  fi
  sed -E -e 's/v_permlane(16|32)_swap_b32(_e32)? (v[0-9]+), (v[0-9]+)/v_mov_b32 \3, \4\n\tv_mov_b32 \4, \3/' "${rate[@]}" "$1" |
    "$mca" -mtriple=amdgcn-amd-amdhsa -mcpu="$2" -iterations=100 |
    awk -v tiles="${3:-2}" '/^Total Cycles:/ {print $3 / (100 * tiles)}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
# Cycles $1 per 1000 of $2 MACs.
per() { awk -v c="$1" -v m="$2" 'BEGIN {printf "%.3f", 1000 * c / m}'; }
# hk-perf (docs/hardware/TimingModel.md: every wave of a CU at the kernel's
# occupancy) on a kernel's launch description ($1, its main loop covering
# $2 tiles; more flags after): "cycles-per-tile MFMA-utilisation-%". On a
# HipKittens loop body instead (perf_loop FILE WG-WAVES WAVES-PER-SIMD TILES).
perf_fields() {
  python3 -c 'import json, sys
d = json.load(sys.stdin)
print("%.1f %.1f" % (d["cycles_per_iteration"] / float(sys.argv[1]), 100 * d["mfma_utilization"]))' "$1"
}
perf_kernel() {
  local launch=$1 tiles=$2
  shift 2
  "$build/bin/hk-perf" "$launch" --json "$@" | perf_fields "$tiles"
}
perf_loop() {
  "$build/bin/hk-perf" "$1" --chip=gfx950 --workgroup-waves="$2" \
    --waves-per-simd="$3" --json | perf_fields "$4"
}
# Which of two candidates a model finds faster: "$1" if its figure $2 is
# the better (lower cycles with $4 = low, higher utilisation with high).
better() { awk -v a="$2" -v b="$3" -v dir="$4" 'BEGIN {exit !(dir == "low" ? a <= b : a >= b)}'; }
# Every figure the run measures, for the summary table at its end:
# "what|hk's llvm-mca cycles|HipKittens'|unit|hk's hk-perf cycles|
# HipKittens'|hk's MFMA utilisation %|HipKittens'" (empty: not measured).
measured=()
record() { measured+=("$1|$2|$3|$4|${5:-}|${6:-}|${7:-}|${8:-}"); }
# The schedules the two models rank differently, for the summary.
disagreements=()
compile() { # chip name flags...
  local chip=$1 name=$2
  shift 2
  local start end
  start=$(date +%s%N)
  "$build/bin/hk-compile" "$root/examples/gemm_bf16_$chip.mlir" --chip="$chip" "$@" \
    -o "$out/$name.hsaco" --asm="$out/$name.s" --llvm-ir="$out/$name.ll" \
    --launch="$out/$name.json"
  end=$(date +%s%N)
  echo "hk: $chip reference GEMM ($*) compiled in" \
    "$(((end - start) / 1000000)) ms -> $out/$name.hsaco (assembly, LLVM IR," \
    "launch description beside it); LDS synchronisation proven (hk-verify-lds)"
  "$build/bin/hk-report" "$out/$name.hsaco" --asm="$out/$name.s" \
    --loop-body="$out/$name.loop.s"
}

# gfx950: the two fastest correct schedules, HipKittens' ping-pong and the
# double-buffered loop unrolled by 2, each measured with llvm-mca and
# hk-perf next to HipKittens' own loop (when $HK_REFERENCE_DIR holds it,
# at its real 2 waves per SIMD) in this run; the one hk-perf finds faster
# is the main job's kernel (build/gemm/gfx950.*): where the two models
# disagree, hk-perf is followed, as it is the one that scored better on
# the timing calibration set (docs/hardware/TimingModel.md#choice).
pingpong=(--stages=2 --direct-lds --schedule=ping-pong)
unrolled=(--stages=2 --direct-lds --mma-priority=1 --unroll=2)
compile gfx950 gfx950-ping-pong "${pingpong[@]}"
compile gfx950 gfx950-unroll2 "${unrolled[@]}"
pp=$(mca_cycles "$out/gfx950-ping-pong.loop.s" gfx950)
un=$(mca_cycles "$out/gfx950-unroll2.loop.s" gfx950)
reference="$reference_dir/hipkittens-gfx950-loop.s"
read -r pp_perf pp_util <<<"$(perf_kernel "$out/gfx950-ping-pong.json" 2)"
read -r un_perf un_util <<<"$(perf_kernel "$out/gfx950-unroll2.json" 2)"
theirs="" theirs_perf="" theirs_util=""
if [ -f "$reference" ]; then
  theirs=$(mca_cycles "$reference" gfx950)
  read -r theirs_perf theirs_util <<<"$(perf_loop "$reference" 8 2 2)"
else
  echo "hk: no HipKittens reference loops in $reference_dir (set HK_REFERENCE_DIR): comparison skipped"
fi
for row in "ping-pong $pp $pp_perf $pp_util" "unroll2 $un $un_perf $un_util"; do
  read -r name mca_c perf_c util <<<"$row"
  versus=""
  [ -n "$theirs" ] && versus="; ${theirs} / $theirs_perf (${theirs_util}%) for HipKittens' loop, ratio $(ratio "$mca_c" "$theirs") / $(ratio "$perf_c" "$theirs_perf")"
  record "gfx950 bf16 GEMM $name" "$mca_c" "$theirs" "per K tile" "$perf_c" "$theirs_perf" "$util" "$theirs_util"
  echo "hk: gfx950 $name main loop: llvm-mca $mca_c cycles per K tile, hk-perf $perf_c (MFMA ${util}%)$versus"
done
# Same MFMA work per K tile and the same occupancy: the higher
# utilisation is the faster loop.
if better x "$pp_util" "$un_util" high; then
  best=ping-pong gfx950=("${pingpong[@]}") other=("${unrolled[@]}")
else
  best=unroll2 gfx950=("${unrolled[@]}") other=("${pingpong[@]}")
fi
mca_best=unroll2
better x "$pp" "$un" low && mca_best=ping-pong
[ "$mca_best" != "$best" ] &&
  disagreements+=("gfx950 bf16 GEMM: llvm-mca prefers $mca_best, hk-perf $best (followed)")
for ext in hsaco s ll json loop.s; do
  cp "$out/gfx950-$best.$ext" "$out/gfx950.$ext"
done
echo "hk: gfx950 main-job kernel: $best (${gfx950[*]}) -> $out/gfx950.hsaco"

gfx1201=(--stages=2 --unroll=2 --defer-fill-stores)
compile gfx1201 gfx1201 "${gfx1201[@]}"
# gfx1201 has no HipKittens loop; its WMMA utilisation is hk-perf's.
g12=$(mca_cycles "$out/gfx1201.loop.s" gfx1201)
read -r g12_perf g12_util <<<"$(perf_kernel "$out/gfx1201.json" 2)"
record "gfx1201 bf16 GEMM (${gfx1201[*]})" "$g12" "" "per K tile" "$g12_perf" "" "$g12_util" ""
echo "hk: gfx1201 main loop: llvm-mca $g12 cycles per K tile, hk-perf $g12_perf (WMMA ${g12_util}%)"

status=0
# Bank conflicts of every fragment read and fill, statically: none allowed.
for chip in gfx950 gfx1201; do
  if "$build/bin/hk-opt" "$root/examples/gemm_bf16_$chip.mlir" \
      --hk-check-bank-conflicts=max-ways=1 -o /dev/null 2>/dev/null; then
    echo "hk: $chip reference GEMM: every fragment read and fill is 1-way (hk-check-bank-conflicts)"
  else
    echo "hk: $chip reference GEMM has LDS bank conflicts:" >&2
    "$build/bin/hk-opt" "$root/examples/gemm_bf16_$chip.mlir" \
      --hk-check-bank-conflicts=max-ways=1 -o /dev/null >&2 || true
    status=1
  fi
done
checks=0 failed_checks=0
check() {
  checks=$((checks + 1))
  "$build/bin/hk-run" "$@" || { status=1; failed_checks=$((failed_checks + 1)); }
}
e950="$root/examples/gemm_bf16_gfx950.mlir"
e1201="$root/examples/gemm_bf16_gfx1201.mlir"
set -- "$e950" --chip=gfx950 "${gfx950[@]}"
check "$@" --size=512,512,512 --test=identity
check "$@" --size=512,768,320 --test=random
check "$@" --size=512,512,448 --test=compare --compare="$e950" --compare-stages=1
check "$@" --size=768,512,192 --test=compare --compare="$e950" --compare-stages=1
# The other gfx950 candidate gives the same bits too.
check "$e950" --chip=gfx950 "${other[@]}" --size=512,512,320 --test=compare \
  --compare="$e950" --compare-stages=1
set -- "$e1201" --chip=gfx1201 "${gfx1201[@]}"
check "$@" --size=256,256,256 --test=identity
check "$@" --size=384,256,448 --test=random
check "$@" --size=256,384,320 --test=compare --compare="$e1201" --compare-stages=1
# Any M, N, K: edge tiles, a partial K tile, rows that are not whole
# 16-byte chunks (K % 8 != 0), on both main-job kernels.
for chip in gfx950 gfx1201; do
  if [ "$chip" = gfx950 ]; then flags=("${gfx950[@]}"); else flags=("${gfx1201[@]}"); fi
  example="$root/examples/gemm_bf16_$chip.mlir"
  for size in 1,1,1 17,33,65 255,257,63 300,200,100 129,513,1000 1000,72,31; do
    check "$example" --chip=$chip "${flags[@]}" --size=$size --test=random
  done
  check "$example" --chip=$chip "${flags[@]}" --size=300,200,200 --test=identity
  check "$example" --chip=$chip "${flags[@]}" --size=333,257,190 --test=compare \
    --compare="$example" --compare-stages=1
done
# The batched kernels with padded rows and the epilogue, with the same
# schedules.
for chip in gfx950 gfx1201; do
  if [ "$chip" = gfx950 ]; then flags=("${gfx950[@]}"); else flags=("${gfx1201[@]}"); fi
  example="$root/examples/gemm_bf16_batched_$chip.mlir"
  check "$example" --chip=$chip "${flags[@]}" --size=300,200,100 --batch=3 \
    --alpha=0.5 --beta=1 --bias=random --test=random
  check "$example" --chip=$chip "${flags[@]}" --size=255,257,63 --batch=2 \
    --pad=5 --alpha=-1.5 --beta=0 --bias=random --test=random
  check "$example" --chip=$chip "${flags[@]}" --size=256,128,128 --batch=2 \
    --pad=8 --test=identity
done
# The fp8 kernels in both formats, MXFP8 and the 4-wave fp8 kernel (issue
# 14's checks), with the schedules above.
for chip in gfx950 gfx1201; do
  if [ "$chip" = gfx950 ]; then flags=("${gfx950[@]}"); else flags=("${gfx1201[@]}"); fi
  for dtype in e4m3 e5m2; do
    for size in 512,512,512 300,200,333; do
      check "$root/examples/gemm_fp8_$chip.mlir" --chip=$chip "${flags[@]}" \
        --dtype=$dtype --size=$size --test=random
    done
  done
done
check "$root/examples/gemm_mxfp8_gfx950.mlir" --chip=gfx950 --stages=2 \
  --direct-lds --dtype=e4m3 --size=512,512,512 --test=random
check "$root/examples/gemm_fp8_4wave_gfx950.mlir" --chip=gfx950 --stages=2 \
  --direct-lds --dtype=e4m3 --size=512,512,512 --test=random
# The 4-wave kernel's fastest schedule (one wave per SIMD, no ping-pong
# partner): one barrier per K tile, its first operands read a tile ahead.
for size in 512,512,512 300,200,333; do
  check "$root/examples/gemm_fp8_4wave_gfx950.mlir" --chip=gfx950 --stages=2 \
    --direct-lds --schedule=interleave --dtype=e4m3 --size=$size --test=random
done
# The MoE GEMMs (issue 55): the contiguous bf16 kernel per chip with the
# main job's schedules, E = 8 experts, top-2 of 96 tokens, skewed routing
# (empty experts), and gfx950's fp8 kernel.
for chip in gfx950 gfx1201; do
  if [ "$chip" = gfx950 ]; then flags=("${gfx950[@]}"); else flags=("${gfx1201[@]}"); fi
  check "$root/examples/moe_gemm_bf16_contiguous_$chip.mlir" --chip=$chip \
    "${flags[@]}" --moe=8,384,320,96,2 --routing=skewed
done
check "$root/examples/moe_gemm_fp8_contiguous_gfx950.mlir" --chip=gfx950 \
  "${gfx950[@]}" --dtype=e4m3 --moe=8,384,384,96,2 --routing=random
# The gathered fp8 kernel per chip (vLLM's sorted_token_ids form).
for chip in gfx950 gfx1201; do
  if [ "$chip" = gfx950 ]; then flags=("${gfx950[@]}"); else flags=("${gfx1201[@]}"); fi
  check "$root/examples/moe_gemm_fp8_gathered_$chip.mlir" --chip=$chip \
    "${flags[@]}" --dtype=e4m3 --moe=8,384,384,96,2 --routing=skewed
done
# gfx950's fp8 main loops in llvm-mca, at the fp8 MFMA rate and in the raw
# model, next to HipKittens' fp8 loops (31 K tiles of 128 in each file).
fp8_mca() { # label example reference-file (- for none) flags...
  local label=$1 example=$2 ref=$3 tiles=1
  shift 3
  [[ " $* " == *" --schedule=ping-pong "* ]] && tiles=2
  local name="$out/gfx950-$label"
  "$build/bin/hk-compile" "$root/examples/$example" --chip=gfx950 --dtype=e4m3 "$@" \
    -o "$name.hsaco" --asm="$name.s" --launch="$name.json" &&
    "$build/bin/hk-report" "$name.hsaco" --asm="$name.s" \
      --loop-body="$name.loop.s" >/dev/null || { status=1; return; }
  local rate raw line perf util
  rate=$(mca_cycles "$name.loop.s" gfx950 $tiles fp8) && raw=$(mca_cycles "$name.loop.s" gfx950 $tiles) ||
    { status=1; return; }
  # hk-perf times fp8 MFMAs as the sched model does (raw).
  read -r perf util <<<"$(perf_kernel "$name.json" $tiles)"
  line="hk: gfx950 $label ($*) main loop, llvm-mca: $rate cycles per K tile at the fp8 rate ($raw in the raw model); hk-perf $perf (MFMA ${util}%, raw)"
  if [ "$ref" = - ]; then
    line+=" (no HipKittens loop of its kind to compare)"
    record "gfx950 $label" "$rate" "" "per K tile, fp8 rate" "$perf" "" "$util" ""
  elif [ -f "$reference_dir/$ref" ]; then
    local theirs theirs_raw theirs_perf theirs_util waves=8 per_simd=2
    theirs=$(mca_cycles "$reference_dir/$ref" gfx950 31 fp8)
    theirs_raw=$(mca_cycles "$reference_dir/$ref" gfx950 31)
    # HipKittens' 4-wave fp8 kernel runs one wave per SIMD.
    [[ "$ref" == *4wave* ]] && waves=4 per_simd=1
    read -r theirs_perf theirs_util <<<"$(perf_loop "$reference_dir/$ref" $waves $per_simd 31)"
    line+="; $theirs ($theirs_raw) / $theirs_perf (${theirs_util}%) for HipKittens' loop, ratio $(ratio "$rate" "$theirs") ($(ratio "$raw" "$theirs_raw") raw) / $(ratio "$perf" "$theirs_perf")"
    record "gfx950 $label" "$rate" "$theirs" "per K tile, fp8 rate" "$perf" "$theirs_perf" "$util" "$theirs_util"
  else
    line+="; no HipKittens loop $reference_dir/$ref (set HK_REFERENCE_DIR): comparison skipped"
  fi
  echo "$line"
}
fp8_mca fp8-8wave-ping-pong gemm_fp8_gfx950.mlir hipkittens-gfx950-fp8-8wave-loop.s "${pingpong[@]}"
fp8_mca fp8-4wave gemm_fp8_4wave_gfx950.mlir hipkittens-gfx950-fp8-4wave-loop.s --stages=2 --direct-lds
fp8_mca fp8-4wave-ping-pong gemm_fp8_4wave_gfx950.mlir hipkittens-gfx950-fp8-4wave-loop.s "${pingpong[@]}"
fp8_mca fp8-4wave-interleave gemm_fp8_4wave_gfx950.mlir hipkittens-gfx950-fp8-4wave-loop.s --stages=2 --direct-lds --schedule=interleave
fp8_mca mxfp8 gemm_mxfp8_gfx950.mlir - --stages=2 --direct-lds
# Attention: each kernel compiled and reported, then checked at the shapes
# issue 13 names.
mkdir -p "$build/attention"
# gfx950: two candidates per head dim, the double-buffered loop unrolled
# by 2 and the ping-pong (2 K/V tiles per trip each), measured with both
# models; hk-perf's choice is the main job's kernel, as for the GEMM.
# gfx1201: double-buffered (one tile per trip), hk-perf for its WMMA
# utilisation.
attention_candidate() { # chip d label flags...
  local chip=$1 d=$2 label=$3
  shift 3
  local name="$build/attention/d${d}-$chip-$label"
  "$build/bin/hk-compile" "$root/examples/attention_fwd_bf16_d${d}_$chip.mlir" \
    --chip=$chip "$@" -o "$name.hsaco" --asm="$name.s" --launch="$name.json" &&
    "$build/bin/hk-report" "$name.hsaco" --asm="$name.s" \
      --loop-body="$name.loop.s" >/dev/null || { status=1; return 1; }
}
for chip in gfx950 gfx1201; do
  for d in 64 128; do
    example="$root/examples/attention_fwd_bf16_d${d}_$chip.mlir"
    name="$build/attention/d${d}-$chip"
    if [ "$chip" = gfx950 ]; then
      attn_unrolled=(--stages=2 --direct-lds --unroll=2)
      attn_pingpong=(--stages=2 --direct-lds --schedule=ping-pong)
      attention_candidate $chip $d unroll2 "${attn_unrolled[@]}" || continue
      attention_candidate $chip $d ping-pong "${attn_pingpong[@]}" || continue
      u_mca=$(mca_cycles "$name-unroll2.loop.s" gfx950 2)
      p_mca=$(mca_cycles "$name-ping-pong.loop.s" gfx950 2)
      read -r u_perf u_util <<<"$(perf_kernel "$name-unroll2.json" 2)"
      read -r p_perf p_util <<<"$(perf_kernel "$name-ping-pong.json" 2)"
      if better x "$p_util" "$u_util" high; then
        attn_best=ping-pong aflags=("${attn_pingpong[@]}")
      else
        attn_best=unroll2 aflags=("${attn_unrolled[@]}")
      fi
      attn_mca_best=unroll2
      better x "$p_mca" "$u_mca" low && attn_mca_best=ping-pong
      [ "$attn_mca_best" != "$attn_best" ] &&
        disagreements+=("gfx950 attention d=$d: llvm-mca prefers $attn_mca_best, hk-perf $attn_best (followed)")
      for ext in hsaco s json loop.s; do cp "$name-$attn_best.$ext" "$name.$ext"; done
      # The steady-state K/V loop next to HipKittens' loop of the same
      # head dim (4 tiles in its file, 8 waves at 2 per SIMD), per tile
      # of equal work (one wave's 32 queries x 64 keys).
      theirs_attn="$reference_dir/hipkittens-gfx950-attn-d$d-loop.s"
      theirs="" theirs_perf="" theirs_util=""
      if [ -f "$theirs_attn" ]; then
        theirs=$(mca_cycles "$theirs_attn" gfx950 4)
        read -r theirs_perf theirs_util <<<"$(perf_loop "$theirs_attn" 8 2 4)"
      else
        echo "hk: no HipKittens reference loop $theirs_attn (set HK_REFERENCE_DIR): attention d=$d comparison skipped"
      fi
      for row in "unroll2 $u_mca $u_perf $u_util" "ping-pong $p_mca $p_perf $p_util"; do
        read -r label mca_c perf_c util <<<"$row"
        versus=""
        [ -n "$theirs" ] && versus="; $theirs / $theirs_perf (${theirs_util}%) for HipKittens' loop, ratio $(ratio "$mca_c" "$theirs") / $(ratio "$perf_c" "$theirs_perf")"
        echo "hk: gfx950 attention d=$d $label K/V loop: llvm-mca $mca_c cycles per KV tile, hk-perf $perf_c (MFMA ${util}%)$versus"
        record "gfx950 attention d=$d $label" "$mca_c" "$theirs" "per KV tile" "$perf_c" "$theirs_perf" "$util" "$theirs_util"
      done
    else
      aflags=(--stages=2)
      attention_candidate $chip $d stages2 "${aflags[@]}" || continue
      for ext in hsaco s json loop.s; do cp "$name-stages2.$ext" "$name.$ext"; done
      a_mca=$(mca_cycles "$name.loop.s" gfx1201 1)
      read -r a_perf a_util <<<"$(perf_kernel "$name.json" 1)"
      echo "hk: gfx1201 attention d=$d K/V loop: llvm-mca $a_mca cycles per KV tile, hk-perf $a_perf (WMMA ${a_util}%)"
      record "gfx1201 attention d=$d (${aflags[*]})" "$a_mca" "" "per KV tile" "$a_perf" "" "$a_util" ""
    fi
    echo "hk: $chip attention d=$d (${aflags[*]}) -> $name.hsaco"
    "$build/bin/hk-report" "$name.hsaco" --asm="$name.s" || status=1
    check "$example" --chip=$chip "${aflags[@]}" --attention=1,4,2,256,256,$d --test=random
    check "$example" --chip=$chip "${aflags[@]}" --attention=1,4,2,256,256,$d --causal --test=random
    check "$example" --chip=$chip "${aflags[@]}" --attention=2,2,1,200,333,$d --test=random
    check "$example" --chip=$chip "${aflags[@]}" --attention=1,2,2,77,77,$d --causal --test=random
  done
done
# The attention backward, fused (one pass, five GEMMs per tile, dQ by fp32
# atomics) and deterministic (a dQ and a dK/dV kernel): every kernel of each
# module compiled and reported, the main loops measured, then checked
# against fp64 gradients (GQA, causal, tails). On gfx950 d = 128 the fused
# loop stands beside AITER's fused backward loop, per 1000 MACs of backward
# work (the five GEMMs: 64 x 32 x d x 5 MACs a trip for hk, 2621440 for
# AITER's; the deterministic pair does 7/5 of the work).
aiter_bwd="$reference_dir/aiter-gfx950-attn-bwd-d128-loop.s"
for chip in gfx950 gfx1201; do
  for d in 64 128; do
    for variant in fused deterministic; do
      suffix="" kernels="fused"
      [ $variant = deterministic ] && suffix=_deterministic kernels="dq dkdv"
      example="$root/examples/attention_bwd_bf16_d${d}_${chip}$suffix.mlir"
      name="$build/attention/bwd-d${d}-$chip$suffix"
      "$build/bin/hk-compile" "$example" --chip=$chip \
        -o "$name.hsaco" --asm="$name.s" --launch="$name.json" || status=1
      echo "hk: $chip attention backward ($variant) d=$d -> $name.hsaco"
      "$build/bin/hk-report" "$name.hsaco" --asm="$name.s" || status=1
      for kernel in $kernels; do
        "$build/bin/hk-report" "$name.hsaco" --asm="$name.s" \
          --kernel="attention_bwd_${kernel}_bf16_d$d" \
          --loop-body="$name.$kernel.loop.s" >/dev/null || status=1
        read -r b_perf b_util <<<"$(perf_kernel "$name.json" 1 --kernel="attention_bwd_${kernel}_bf16_d$d")" || status=1
        echo "hk: $chip attention backward d=$d $kernel main loop: hk-perf $b_perf cycles per trip (MFMA/WMMA ${b_util}%)"
        if [ $chip = gfx950 ] && [ $kernel = fused ] && [ $d = 128 ]; then
          macs=$((64 * 32 * d * 5))
          b_mca=$(mca_cycles "$name.$kernel.loop.s" gfx950 1)
          ours=$(per "$b_mca" $macs) ours_perf=$(per "$b_perf" $macs)
          theirs="" theirs_perf="" theirs_util=""
          if [ -f "$aiter_bwd" ]; then
            theirs=$(per "$(mca_cycles "$aiter_bwd" gfx950 1)" 2621440)
            read -r a_perf theirs_util <<<"$(perf_loop "$aiter_bwd" 4 1 1)"
            theirs_perf=$(per "$a_perf" 2621440)
            echo "hk: gfx950 attention backward d=128 fused loop per 1000 MACs of backward work: llvm-mca $ours cycles, hk-perf $ours_perf (MFMA ${b_util}%); AITER's fused loop $theirs / $theirs_perf (${theirs_util}%), ratio $(ratio "$ours" "$theirs") / $(ratio "$ours_perf" "$theirs_perf")"
          else
            echo "hk: no AITER backward loop $aiter_bwd (set HK_REFERENCE_DIR): backward comparison skipped"
          fi
          record "gfx950 attention bwd d=128 fused vs AITER" "$ours" "$theirs" "per 1000 bwd MACs" "$ours_perf" "$theirs_perf" "$b_util" "$theirs_util"
        else
          record "$chip attention bwd d=$d $kernel" "" "" "per trip" "$b_perf" "" "$b_util" ""
        fi
      done
      check "$example" --chip=$chip --attention-bwd=1,4,2,200,333,$d --causal
      check "$example" --chip=$chip --attention-bwd=2,2,2,77,65,$d
    done
  done
done
# The summary: every ratio measured above, then the checks.
echo
echo "hk: summary: cycles of each main loop per tile and wave, in llvm-mca (one wave) and hk-perf (every wave of a CU at the kernel's occupancy, with its MFMA/WMMA utilisation); ratio = hk / HipKittens, below 1 is faster"
printf '  %-44s %8s %8s %6s | %8s %8s %6s | %6s %6s  %s\n' kernel mca:hk HK ratio perf:hk HK ratio util% HK% unit
for row in "${measured[@]}"; do
  IFS='|' read -r what ours theirs unit perf theirs_perf util theirs_util <<<"$row"
  r=- pr=-
  [ -n "$ours" ] && [ -n "$theirs" ] && r=$(ratio "$ours" "$theirs")
  [ -n "$perf" ] && [ -n "$theirs_perf" ] && pr=$(ratio "$perf" "$theirs_perf")
  printf '  %-44s %8s %8s %6s | %8s %8s %6s | %6s %6s  %s\n' "$what" "${ours:--}" "${theirs:--}" "$r" \
    "${perf:--}" "${theirs_perf:--}" "$pr" "${util:--}" "${theirs_util:--}" "$unit"
done
if [ ${#disagreements[@]} -eq 0 ]; then
  echo "hk: llvm-mca and hk-perf rank the candidate schedules alike"
else
  printf 'hk: the models disagree: %s\n' "${disagreements[@]}"
fi
echo "hk: main-job kernels: gfx950 $best (${gfx950[*]}), gfx1201 (${gfx1201[*]}); gfx950 attention: hk-perf's choice per head dim above"
echo "hk: $((checks - failed_checks)) of $checks simulator checks passed"
if [ "$status" -eq 0 ]; then
  echo "hk: the reference GEMMs and attention kernels (forward and backward) compiled and validated on the simulator"
else
  echo "hk: validation FAILED" >&2
fi
exit "$status"
