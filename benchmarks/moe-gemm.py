#!/usr/bin/env python3
"""The MoE GEMMs (issue 55) next to the dense GEMM, in one run.

1. Checks: each MoE example runs on the simulator against fp64
   (hk-run --moe), at the schedule measured below.
2. Large M: the MoE kernel's main K loop against the dense GEMM's of the
   same type and schedule under hk-perf (the timing model of one CU, kernel
   mode): cycles per MFMA cycle of the steady loop (the loop with the
   highest MFMA utilisation), whose ratio is the ratio of cycles per MAC
   (same MFMA), and the MFMA share. Target: at most 1.02x.
3. Decode: the weight bytes the gathered kernel reads per token against the
   minimum (each needed expert's weights once), for T = 1..64 tokens, E =
   128, top-8, uniform routing, from the kernel's tiling: an item streams
   its n-tile of its expert's B for the whole K, and an expert is read once
   per m-tile it has. Padding rows lie past A: the copies' buffer loads
   fetch nothing for them. Target: at most 1.10x.

    benchmarks/moe-gemm.py [--json]     -> benchmarks/results/moe-gemm.json
"""

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile

import hkbench
from hkbench import ROOT, fail, run, tool

EX = ROOT + "/examples/"
# (label, MoE example, dense example, chip, schedule flags, run flags)
LARGE_M = [
    ("bf16 ping-pong", "moe_gemm_bf16_contiguous_gfx950", "gemm_bf16_gfx950",
     "gfx950", ["--stages=2", "--direct-lds", "--schedule=ping-pong"], []),
    ("bf16 stages2+direct", "moe_gemm_bf16_contiguous_gfx950",
     "gemm_bf16_gfx950", "gfx950", ["--stages=2", "--direct-lds"], []),
    ("fp8 ping-pong", "moe_gemm_fp8_contiguous_gfx950", "gemm_fp8_gfx950",
     "gfx950", ["--stages=2", "--direct-lds", "--schedule=ping-pong"],
     ["--dtype=e4m3"]),
    ("fp8 gathered ping-pong", "moe_gemm_fp8_gathered_gfx950",
     "gemm_fp8_gfx950", "gfx950",
     ["--stages=2", "--direct-lds", "--schedule=ping-pong"], ["--dtype=e4m3"]),
    ("bf16 gfx1201 stages2", "moe_gemm_bf16_contiguous_gfx1201",
     "gemm_bf16_gfx1201", "gfx1201", ["--stages=2", "--unroll=2"], []),
]


def steady_loop(source, chip, flags):
    """hk-perf's figures of the kernel's steady main loop, and the
    compile's warnings (spills)."""
    with tempfile.TemporaryDirectory() as tmp:
        launch = tmp + "/k.json"
        p = run([tool("hk-compile"), source, f"--chip={chip}", *flags,
                 "-o", tmp + "/k.hsaco", f"--launch={launch}"])
        warnings = [l for l in p.stderr.splitlines() if "spills" in l]
        listing = run([tool("hk-perf"), launch]).stdout
        loops = re.findall(r"0x[0-9a-f]+", listing.split("loops:")[1]
                           .splitlines()[0])
        best = None
        for loop in loops:
            figures = json.loads(run([tool("hk-perf"), launch, "--json",
                                      f"--loop={loop}"]).stdout)
            if figures["mfma_cycles_per_wave_iteration"] == 0:
                continue
            if not best or figures["mfma_utilization"] > \
                    best["mfma_utilization"]:
                best = dict(figures, loop=loop)
        if not best:
            fail(f"{source}: no loop with matrix instructions")
        best["spill_warnings"] = warnings
        return best


def check(example, chip, flags, run_flags):
    out = run([tool("hk-run"), EX + example + ".mlir", f"--chip={chip}",
               *flags, *run_flags, "--moe=8,384,384,96,2", "--json"])
    result = json.loads(out.stdout)
    if not result.get("pass"):
        fail(f"{example} {' '.join(flags)} failed its check: {out.stdout}")


def decode_bytes(tokens, experts=128, topk=8, n=4096, k=7168, bm=32, bn=128,
                 seed=1):
    """Weight bytes read (per byte of element) and the minimum, for one
    uniform routing, as the gathered kernel's items read them."""
    rng = random.Random(seed)
    counts = [0] * experts
    for _ in range(tokens):
        for e in rng.sample(range(experts), topk):
            counts[e] += 1
    read = minimum = 0
    for c in counts:
        if c == 0:
            continue
        m_tiles = -(-c // bm)
        read += m_tiles * n * k  # every n-tile of B, once per m-tile
        minimum += n * k
    return read, minimum


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    hkbench.setup()
    large = []
    for label, moe, dense, chip, flags, run_flags in LARGE_M:
        check(moe, chip, flags, run_flags)
        m = steady_loop(EX + moe + ".mlir", chip, flags)
        d = steady_loop(EX + dense + ".mlir", chip, flags)
        per_m = m["cycles_per_iteration"] / m["mfma_cycles_per_wave_iteration"]
        per_d = d["cycles_per_iteration"] / d["mfma_cycles_per_wave_iteration"]
        large.append({
            "label": label, "moe": moe, "dense": dense, "flags": flags,
            "moe_loop": m["loop"], "dense_loop": d["loop"],
            "moe_cycles_per_mfma_cycle": per_m,
            "dense_cycles_per_mfma_cycle": per_d,
            "ratio": per_m / per_d,
            "moe_mfma_share": m["mfma_utilization"],
            "dense_mfma_share": d["mfma_utilization"],
            "moe_spills": m["spill_warnings"],
            "meets_1_02": per_m / per_d <= 1.02,
        })
    decode = []
    for tokens in (1, 2, 4, 8, 16, 32, 64):
        read, minimum = decode_bytes(tokens)
        decode.append({"tokens": tokens, "weight_bytes_ratio": read / minimum,
                       "meets_1_10": read / minimum <= 1.10})
    path = hkbench.write_json("moe-gemm.json", {
        "model": "hk-perf kernel mode (steady main loop)",
        "large_m": large, "decode": decode})
    if args.json:
        print(json.dumps({"large_m": large, "decode": decode}, indent=1))
        return
    print("large M: the MoE main loop / the dense GEMM's (hk-perf, cycles "
          "per MAC)")
    for r in large:
        print(f"  {r['label']:26s} {r['ratio']:.3f}x  MFMA "
              f"{100 * r['moe_mfma_share']:.1f}% (dense "
              f"{100 * r['dense_mfma_share']:.1f}%)"
              f"{'' if r['meets_1_02'] else '  MISSES 1.02x'}"
              f"{'  [' + r['moe_spills'][0].split(': ', 1)[-1] + ']' if r['moe_spills'] else ''}")
    print("decode (E = 128, top-8, --small-m tiles 32x128): weight bytes "
          "read / minimum")
    for r in decode:
        print(f"  T = {r['tokens']:2d}: {r['weight_bytes_ratio']:.3f}")
    print(f"results: {path}")


if __name__ == "__main__":
    main()
