#!/usr/bin/env bash
# Simulator speed: the reference GEMMs at 256^3, 512^3 and 1024^3 on the
# `sim` backend. Each run is checked (random test against fp64) before its
# time counts; a failed check aborts the benchmark. Writes one JSON object per
# run to benchmarks/results/sim-speed.json and a table to stdout.
#
#   benchmarks/sim-speed.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
[ -n "${SKIP_SETUP:-}" ] || "$root/scripts/setup.sh" >/dev/null

mkdir -p "$root/benchmarks/results"
final="$root/benchmarks/results/sim-speed.json"
# Written aside and moved into place at the end, so that a failed check
# leaves the previous results whole.
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "[" > "$out"
first=1
printf '%-8s %-6s %9s %9s %9s %12s %12s\n' chip size compile_s sim_s total_s Mlane-ins/s MMA/s
for chip in gfx950 gfx1201; do
  for n in 256 512 1024; do
    start=$(date +%s%N)
    json=$("$build/bin/hk-run" "$root/examples/gemm_bf16_$chip.mlir" \
      --chip=$chip --size=$n,$n,$n --test=random --json) || {
      echo "check failed for $chip at $n^3: $json" >&2; exit 1; }
    end=$(date +%s%N)
    total=$(( (end - start) / 1000000 ))
    [ $first -eq 1 ] || echo "," >> "$out"
    first=0
    echo "$json" | sed "s/}\$/,\"total_ms\":$total,\"date\":\"$(date -u +%F)\"}/" >> "$out"
    python3 - "$json" "$chip" "$n" "$total" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
print(f"{sys.argv[2]:<8} {sys.argv[3]+'^3':<6} {r['compile_seconds']:9.2f} {r['simulate_seconds']:9.2f} "
      f"{int(sys.argv[4])/1000:9.2f} {r['lane_instructions_per_second']/1e6:12.1f} {r['mmas_per_second']:12.0f}")
PY
  done
done
echo "]" >> "$out"
mv "$out" "$final"
echo "results: $final"
