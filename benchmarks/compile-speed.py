#!/usr/bin/env python3
"""Compile speed: wall time and peak memory of the whole pipeline, hk source
to code object (hk-compile), for every reference kernel variant, and how it
grows with K-loop unrolling. Each variant is first compiled and checked (its
code object's resources are read back, and its GEMM passes the random test
on the simulator); then one warm-up run and the median of --runs timed runs.

    benchmarks/compile-speed.py [--runs N]

Writes benchmarks/results/compile-speed.json and prints a table.
"""

import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hkbench  # noqa: E402

TARGET_SECONDS = 2.0


def check(v, out):
    hkbench.run([hkbench.tool("hk-compile"), v.source, *v.flags(), "-o", out])
    report = json.loads(hkbench.run(
        [hkbench.tool("hk-report"), out, "--json"]).stdout)
    kernel = report["kernels"][0]
    hkbench.check_on_simulator(v, "512,512,512" if v.chip == "gfx950"
                               else "256,256,512")
    return kernel


def measure(v, runs, out):
    kernel = check(v, out)
    argv = [hkbench.tool("hk-compile"), v.source, *v.flags(), "-o", out]
    hkbench.timed(argv)  # warm-up: page cache, ccache-free steady state
    samples = [hkbench.timed(argv) for _ in range(runs)]
    seconds = [s for s, _ in samples]
    return {**v.describe(),
            "median_seconds": round(hkbench.median(seconds), 4),
            "min_seconds": round(min(seconds), 4),
            "max_seconds": round(max(seconds), 4),
            "peak_rss_mib": round(max(m for _, m in samples), 1),
            "runs": runs,
            "vgprs": kernel["vgprs"],
            "vgpr_spills": kernel["vgpr_spills"],
            "scratch_bytes": kernel["scratch_bytes"],
            "under_target": hkbench.median(seconds) < TARGET_SECONDS}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5,
                        help="timed runs per variant (default 5)")
    args = parser.parse_args()
    if args.runs < 1:
        hkbench.fail("--runs must be at least 1")
    hkbench.setup()

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "kernel.hsaco")
        print(f"{'variant':<28} {'median s':>9} {'min':>7} {'max':>7} "
              f"{'RSS MiB':>8} {'VGPRs':>6} {'spills':>6}")
        for v in hkbench.variants() + [hkbench.unrolled(u) for u in (2, 4, 8)]:
            r = measure(v, args.runs, out)
            rows.append(r)
            print(f"{v.key:<28} {r['median_seconds']:9.3f} "
                  f"{r['min_seconds']:7.3f} {r['max_seconds']:7.3f} "
                  f"{r['peak_rss_mib']:8.1f} {r['vgprs']:6} "
                  f"{r['vgpr_spills']:6}")

    # An unrolled kernel holds U + 1 copies of the K tile's code (the
    # unrolled body and the rolled remainder loop), the plain one holds 1:
    # compile time is linear or better if the time per copy does not grow.
    hk = [r for r in rows
          if r["chip"] == "gfx950" and r["name"].startswith("hipkittens")]
    base = hk[0]["median_seconds"]
    scaling = []
    for r in hk:
        bodies = 1 if r["unroll"] == 1 else r["unroll"] + 1
        per_body = r["median_seconds"] / bodies
        scaling.append({"unroll": r["unroll"], "tile_bodies": bodies,
                        "median_seconds": r["median_seconds"],
                        "time_ratio": round(r["median_seconds"] / base, 3),
                        "seconds_per_tile_body": round(per_body, 4),
                        "linear_or_better": per_body <= base * 1.1})
    print("\nunroll scaling (gfx950 hipkittens): " + ", ".join(
        f"U={s['unroll']}: {s['time_ratio']:.2f}x "
        f"({s['seconds_per_tile_body']:.3f} s per K-tile body)"
        for s in scaling))
    slow = [r for r in rows if r["unroll"] == 1 and not r["under_target"]]
    path = hkbench.write_json("compile-speed.json", {
        "command": "benchmarks/compile-speed.py --runs %d" % args.runs,
        "target_seconds": TARGET_SECONDS, "variants": rows,
        "unroll_scaling": scaling})
    print(f"results: {path}")
    if slow:
        hkbench.fail("over the %.0f s target: %s" % (
            TARGET_SECONDS, ", ".join(f"{r['chip']}/{r['name']}"
                                      for r in slow)))


if __name__ == "__main__":
    main()
