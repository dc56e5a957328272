#!/usr/bin/env python3
"""Hardware timing on a gfx950 or gfx1201 GPU: the reference GEMM variants and
the other operand layouts (nn, tn, tt) at square sizes 1024..8192, at
transformer shapes and at sizes that are not tile multiples, each checked
first (random
test against fp64 on a random sample of C), then warm-up launches and the
median of timed launches with HIP events, in TFLOPS and percent of the chip's
bf16 peak. Where rocBLAS is installed, the same shapes through
rocblas_gemm_ex with the matching transposes (checked the same way) side by
side.

    benchmarks/hw-timing.py [--chip gfx950|gfx1201] [--iterations N]
                            [--shapes M,N,K ...]

Without a HIP runtime or a GPU hk supports it says so and exits with status
3 (as hk-run does); a failed check exits 1, bad options 2. Writes
benchmarks/results/hw-timing.json (or --output) and prints a table.
"""

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hkbench  # noqa: E402

SQUARE = [1024, 2048, 4096, 8192]
# Llama-3-8B-like projections at 8192 tokens: QKV, MLP up+gate, MLP down.
TRANSFORMER = [(8192, 6144, 4096), (8192, 28672, 4096), (8192, 4096, 14336)]
# Sizes that are not tile multiples: edge tiles, a partial K tile, and rows
# that are not whole 16-byte chunks (K % 8 != 0, the element-wise path).
ODD = [(4095, 4097, 4096), (8193, 1000, 4000), (1000, 72, 31)]
CHECK_SAMPLE = 16384
NO_GPU = 3


def hk_run(v, size, args, extra=()):
    return subprocess.run(
        [hkbench.tool("hk-run"), v.source, *v.flags(), *v.run_flags(),
         "--backend=hip",
         "--size=%d,%d,%d" % size, "--test=random",
         f"--check-sample={CHECK_SAMPLE}", f"--warmup={args.warmup}",
         f"--iterations={args.iterations}", "--json", *extra],
        capture_output=True, text=True)


def detect_chip(args):
    """The chip whose code object the GPU runs, or None with the reason.
    A kernel that runs but fails its check stops the benchmark."""
    chips = [args.chip] if args.chip else ["gfx950", "gfx1201"]
    reason = ""
    for chip in chips:
        v = next(v for v in hkbench.variants() if v.chip == chip)
        p = hk_run(v, (256, 256, 64), args)
        if p.returncode == 0:
            return chip, ""
        reason = (p.stderr or p.stdout).strip()
        if p.returncode == NO_GPU:
            return None, reason
        if p.returncode != 2:  # 2: this chip's code object did not load
            hkbench.fail(f"{v.key} at 256,256,64: exit {p.returncode}: "
                         f"{reason}")
    return None, f"the GPU runs none of {', '.join(chips)}: {reason}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chip", choices=["gfx950", "gfx1201"],
                        help="the GPU's chip (default: found by trying)")
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--shapes", nargs="+", metavar="M,N,K",
                        help="time these shapes instead of the default set")
    parser.add_argument("--output", metavar="FILE",
                        default=os.path.join(hkbench.RESULTS,
                                             "hw-timing.json"),
                        help="where the JSON goes (default: %(default)s)")
    args = parser.parse_args()
    shapes = [(n, n, n) for n in SQUARE] + TRANSFORMER + ODD
    if args.shapes:
        try:
            shapes = [tuple(int(x) for x in s.split(",")) for s in args.shapes]
        except ValueError:
            shapes = []
        if not shapes or any(len(s) != 3 or min(s) <= 0 for s in shapes):
            parser.error("--shapes takes positive M,N,K triples, e.g. "
                         "4096,4096,4096")
    if args.warmup < 0 or args.iterations < 1:
        parser.error("--warmup must be >= 0 and --iterations >= 1")
    hkbench.setup()

    chip, reason = detect_chip(args)
    if chip is None:
        print(f"hw-timing: no GPU to time on, nothing timed: {reason}")
        hkbench.write_json(args.output, {
            "command": "benchmarks/hw-timing.py", "status": "no-gpu",
            "reason": reason, "results": []})
        sys.exit(NO_GPU)

    rows = []
    print(f"{'variant':<24} {'M,N,K':<20} {'ms':>8} {'TFLOPS':>8} "
          f"{'% peak':>7} {'rocBLAS TFLOPS':>15}")
    chosen = [v for v in hkbench.variants() if v.chip == chip]
    for v in chosen + hkbench.layout_variants(chip) + \
            hkbench.fp8_variants(chip):
        for size in shapes:
            p = hk_run(v, size, args, ["--baseline=rocblas"])
            if p.returncode != 0:
                hkbench.fail(f"{v.key} at {size}: exit {p.returncode}: "
                             f"{(p.stderr or p.stdout).strip()}")
            r = json.loads(p.stdout)
            base = r.get("baseline") or {}
            rows.append({**v.describe(), "size": list(size),
                         "median_milliseconds": r["median_milliseconds"],
                         "tflops": r["tflops"],
                         "percent_of_peak": 100 * r["tflops"] /
                         r["peak_tflops"],
                         "checked_elements": r["checked_elements"],
                         "rocblas": base})
            print(f"{v.key:<24} {'%d,%d,%d' % size:<20} "
                  f"{r['median_milliseconds']:8.3f} {r['tflops']:8.1f} "
                  f"{100 * r['tflops'] / r['peak_tflops']:7.1f} "
                  f"{base.get('tflops', float('nan')):15.1f}")
    path = hkbench.write_json(args.output, {
        "command": "benchmarks/hw-timing.py", "status": "timed",
        "chip": chip, "warmup": args.warmup, "iterations": args.iterations,
        "results": rows})
    print(f"results: {path}")


if __name__ == "__main__":
    main()
