#!/usr/bin/env python3
"""Compile speed: wall time and peak memory of the whole pipeline, hk source
to code object (hk-compile), for every reference kernel variant, and how it
grows with K-loop unrolling. Each variant is first compiled and checked (its
code object's resources are read back, and its GEMM, attention or MoE GEMM
passes the random test on the simulator); then one warm-up run and the
median of --runs timed runs. The GEMMs (bf16, the fp8 schedules) and the
MoE GEMMs (issue 55) have a 2 s target, the forward attention kernels and
the deterministic backward pair 1 s, each kernel of the fused backward 1.5 s
(issue 54).

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
ATTENTION_TARGET_SECONDS = 1.0
FUSED_BACKWARD_TARGET_SECONDS = 1.5
MOE_TARGET_SECONDS = 2.0
# The MoE problem each MoE variant is checked on (E, N, K, T, top-k).
MOE_CHECK = "8,384,384,96,2"
# The attention each attention variant is checked on (B, Hq, Hkv, N), causal.
ATTENTION_CHECK = (1, 2, 1, 200)


def compile_and_report(argv, out):
    """Runs the hk-compile command `argv` (writing `out`) and returns the
    code object's first kernel as hk-report describes it."""
    hkbench.run(argv)
    return json.loads(hkbench.run(
        [hkbench.tool("hk-report"), out, "--json"]).stdout)["kernels"][0]


def check(v, out):
    kernel = compile_and_report(
        [hkbench.tool("hk-compile"), v.source, *v.flags(), "-o", out], out)
    hkbench.check_on_simulator(v, "512,512,512" if v.chip == "gfx950"
                               else "256,256,512")
    return kernel


def timed_runs(argv, runs, kernel, target):
    """The timing fields of a row: a warm-up run (page cache, ccache-free
    steady state), then `runs` timed runs of `argv`."""
    hkbench.timed(argv)
    samples = [hkbench.timed(argv) for _ in range(runs)]
    seconds = [s for s, _ in samples]
    return {"median_seconds": round(hkbench.median(seconds), 4),
            "min_seconds": round(min(seconds), 4),
            "max_seconds": round(max(seconds), 4),
            "peak_rss_mib": round(max(m for _, m in samples), 1),
            "runs": runs,
            "vgprs": kernel["vgprs"],
            "vgpr_spills": kernel["vgpr_spills"],
            "scratch_bytes": kernel["scratch_bytes"],
            "target_seconds": target,
            "under_target": hkbench.median(seconds) < target}


def measure(v, runs, out):
    kernel = check(v, out)
    argv = [hkbench.tool("hk-compile"), v.source, *v.flags(), "-o", out]
    return {**v.describe(), **timed_runs(argv, runs, kernel, TARGET_SECONDS)}


def attention_variants():
    """(chip, head dim, name, source, flags, backward, target) of every
    forward variant (hkbench.attention_variants()) and of each backward
    kernel, compiled alone with --kernel: the fused backward's three (the
    D pre-pass, the fused pass, dQ's conversion) and the deterministic
    pair's two (dQ, dK/dV)."""
    examples = os.path.join(hkbench.ROOT, "examples")
    out = [(chip, d, "fwd-" + name,
            os.path.join(examples, f"attention_fwd_bf16_d{d}_{chip}.mlir"),
            flags, False, ATTENTION_TARGET_SECONDS)
           for chip, d, name, flags, _ in hkbench.attention_variants()]
    for chip in ("gfx950", "gfx1201"):
        for d in (64, 128):
            for suffix, parts, target in (
                    ("", ("dot", "fused", "dq_convert"),
                     FUSED_BACKWARD_TARGET_SECONDS),
                    ("_deterministic", ("dq", "dkdv"),
                     ATTENTION_TARGET_SECONDS)):
                source = os.path.join(
                    examples, f"attention_bwd_bf16_d{d}_{chip}{suffix}.mlir")
                for part in parts:
                    name = "bwd-" + part + suffix.replace("_", "-")
                    out.append((chip, d, name, source,
                                [f"--chip={chip}",
                                 f"--kernel=attention_bwd_{part}_bf16_d{d}"],
                                True, target))
    return out


def measure_attention(variant, runs, out):
    chip, d, name, source, flags, backward, target = variant
    argv = [hkbench.tool("hk-compile"), source, *flags, "-o", out]
    kernel = compile_and_report(argv, out)
    # The check runs the whole forward or backward (all its kernels).
    b, hq, hkv, n = ATTENTION_CHECK
    option = "--attention-bwd" if backward else "--attention"
    check = hkbench.run([hkbench.tool("hk-run"), source,
                         *[f for f in flags if not f.startswith("--kernel=")],
                         f"{option}={b},{hq},{hkv},{n},{n},{d}", "--causal",
                         "--json"], ok=(0, 1))
    if not json.loads(check.stdout)["pass"]:
        hkbench.fail(f"{chip}/attention-d{d}-{name} failed its check on the "
                     f"simulator: {check.stdout}")
    return {"chip": chip, "name": f"attention-d{d}-{name}", "flags": flags,
            "kernel": kernel["name"],
            **timed_runs(argv, runs, kernel, target)}


def moe_variants():
    """(chip, name, example, flags, run flags) of each MoE GEMM in the kernel
    library (examples/moe_gemm_*) at the schedules benchmarks/moe-gemm.py
    measures."""
    pp = ["--stages=2", "--direct-lds", "--schedule=ping-pong"]
    direct = ["--stages=2", "--direct-lds"]
    e4m3 = ["--dtype=e4m3"]
    return [
        ("gfx950", "bf16-ping-pong", "moe_gemm_bf16_contiguous_gfx950", pp,
         []),
        ("gfx950", "bf16-stages2+direct", "moe_gemm_bf16_contiguous_gfx950",
         direct, []),
        ("gfx950", "bf16-gated-ping-pong",
         "moe_gemm_bf16_contiguous_gated_gfx950", pp, []),
        ("gfx950", "fp8-ping-pong", "moe_gemm_fp8_contiguous_gfx950", pp,
         e4m3),
        ("gfx950", "fp8-gathered-ping-pong", "moe_gemm_fp8_gathered_gfx950",
         pp, e4m3),
        ("gfx950", "mxfp8-ping-pong", "moe_gemm_mxfp8_contiguous_gfx950", pp,
         []),
        ("gfx950", "mxfp8-stages2+direct", "moe_gemm_mxfp8_contiguous_gfx950",
         direct, []),
        ("gfx1201", "bf16-stages2+unroll2", "moe_gemm_bf16_contiguous_gfx1201",
         ["--stages=2", "--unroll=2"], []),
        ("gfx1201", "fp8-gathered", "moe_gemm_fp8_gathered_gfx1201", [],
         e4m3),
        ("gfx1201", "fp8-gathered-stages2", "moe_gemm_fp8_gathered_gfx1201",
         ["--stages=2"], e4m3),
    ]


def measure_moe(variant, runs, out):
    chip, name, example, flags, run_flags = variant
    source = os.path.join(hkbench.ROOT, "examples", example + ".mlir")
    argv = [hkbench.tool("hk-compile"), source, f"--chip={chip}", *flags,
            *run_flags, "-o", out]
    kernel = compile_and_report(argv, out)
    check = hkbench.run([hkbench.tool("hk-run"), source, f"--chip={chip}",
                         *flags, *run_flags, f"--moe={MOE_CHECK}", "--json"],
                        ok=(0, 1))
    if not json.loads(check.stdout)["pass"]:
        hkbench.fail(f"{chip}/moe-{name} failed its check on the simulator: "
                     f"{check.stdout}")
    return {"chip": chip, "name": "moe-" + name, "example": example,
            "flags": [f"--chip={chip}", *flags, *run_flags],
            "kernel": kernel["name"],
            **timed_runs(argv, runs, kernel, MOE_TARGET_SECONDS)}


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
        print(f"{'variant':<48} {'median s':>9} {'min':>7} {'max':>7} "
              f"{'RSS MiB':>8} {'VGPRs':>6} {'spills':>6}")
        gemms = hkbench.variants() + \
            [v for v, _ in hkbench.fp8_schedule_variants()] + \
            [hkbench.unrolled(u) for u in (2, 4, 8)]
        for v in gemms:
            rows.append(measure(v, args.runs, out))
            print_row(v.key, rows[-1])
        attention = []
        for variant in attention_variants():
            attention.append(measure_attention(variant, args.runs, out))
            print_row(f"{variant[0]}/{attention[-1]['name']}", attention[-1])
        moe = []
        for variant in moe_variants():
            moe.append(measure_moe(variant, args.runs, out))
            print_row(f"{variant[0]}/{moe[-1]['name']}", moe[-1])

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
    slow += [r for r in attention + moe if not r["under_target"]]
    path = hkbench.write_json("compile-speed.json", {
        "command": "benchmarks/compile-speed.py --runs %d" % args.runs,
        "target_seconds": TARGET_SECONDS,
        "attention_target_seconds": ATTENTION_TARGET_SECONDS,
        "fused_backward_target_seconds": FUSED_BACKWARD_TARGET_SECONDS,
        "moe_target_seconds": MOE_TARGET_SECONDS,
        "variants": rows, "attention": attention, "moe": moe,
        "unroll_scaling": scaling})
    print(f"results: {path}")
    if slow:
        hkbench.fail("over their targets: " + ", ".join(
            f"{r['chip']}/{r['name']} ({r['median_seconds']:.2f} s, target "
            f"{r['target_seconds']:g} s)" for r in slow))


def print_row(key, r):
    print(f"{key:<48} {r['median_seconds']:9.3f} "
          f"{r['min_seconds']:7.3f} {r['max_seconds']:7.3f} "
          f"{r['peak_rss_mib']:8.1f} {r['vgprs']:6} {r['vgpr_spills']:6}")


if __name__ == "__main__":
    main()
