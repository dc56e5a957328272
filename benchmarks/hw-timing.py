#!/usr/bin/env python3
"""Hardware timing on a gfx950 or gfx1201 GPU: the reference GEMM variants and
the other operand layouts (nn, tn, tt) at square sizes 1024..8192, at
transformer shapes and at sizes that are not tile multiples, each checked
first (random
test against fp64 on a random sample of C), then warm-up launches and the
median of timed launches with HIP events, in TFLOPS and percent of the chip's
bf16 peak. Where rocBLAS is installed, the same shapes through
rocblas_gemm_ex with the matching transposes (checked the same way) side by
side; for the fp8 GEMMs, hipBLASLt's hipblasLtMatmul where it loads. Then the FlashAttention forward kernels (d 64 and 128, double
buffered, direct fills on gfx950) at HipKittens' shapes (GQA Hq 64 / Hkv 8
and MHA H 16, B 16, N 8192) and a tail shape, causal and not, checked on a
random sample of query rows against fp64; attention FLOPs are
4 B Hq Nq Nkv d, halved when causal.

    benchmarks/hw-timing.py [--chip gfx950|gfx1201] [--iterations N]
                            [--shapes M,N,K ...] [--attention-only]
                            [--attention-shapes B,Hq,Hkv,Nq,Nkv ...]

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
# Attention (B, Hq, Hkv, Nq, Nkv): HipKittens' GQA and MHA benchmarks, a
# shape with tails; each at d = 64 and 128, causal and not.
ATTENTION = [(16, 64, 8, 8192, 8192), (16, 16, 16, 8192, 8192),
             (2, 8, 2, 1000, 1333)]
ATTENTION_CHECK_ROWS = 256
NO_GPU = 3


def hk_run(v, size, args, extra=()):
    return subprocess.run(
        [hkbench.tool("hk-run"), v.source, *v.flags(), *v.run_flags(),
         "--backend=hip",
         "--size=%d,%d,%d" % size, "--test=random",
         f"--check-sample={CHECK_SAMPLE}", f"--warmup={args.warmup}",
         f"--iterations={args.iterations}", "--json", *extra],
        capture_output=True, text=True)


def attention_run(chip, d, shape, causal, args):
    flags = [f"--chip={chip}", "--stages=2"]
    if chip == "gfx950":
        flags.append("--direct-lds")
    source = os.path.join(hkbench.ROOT, "examples",
                          f"attention_fwd_bf16_d{d}_{chip}.mlir")
    return subprocess.run(
        [hkbench.tool("hk-run"), source, *flags, "--backend=hip",
         "--attention=%d,%d,%d,%d,%d,%d" % (*shape, d), "--test=random",
         f"--check-sample={ATTENTION_CHECK_ROWS}", f"--warmup={args.warmup}",
         f"--iterations={args.iterations}", "--json",
         *(["--causal"] if causal else [])],
        capture_output=True, text=True)


def time_attention(chip, shapes, args):
    rows = []
    print(f"\n{'attention':<24} {'B,Hq,Hkv,Nq,Nkv':<22} {'ms':>8} "
          f"{'TFLOPS':>8} {'% peak':>7}")
    for d in (64, 128):
        for shape in shapes:
            for causal in (False, True):
                p = attention_run(chip, d, shape, causal, args)
                name = f"d{d}{' causal' if causal else ''}"
                if p.returncode != 0:
                    hkbench.fail(f"attention {name} at {shape}: exit "
                                 f"{p.returncode}: "
                                 f"{(p.stderr or p.stdout).strip()}")
                r = json.loads(p.stdout)
                rows.append({"kernel": r["kernel"], "head_dim": d,
                             "causal": causal, "shape": list(shape),
                             "flops": r["flops"],
                             "median_milliseconds": r["median_milliseconds"],
                             "tflops": r["tflops"],
                             "percent_of_peak": 100 * r["tflops"] /
                             r["peak_tflops"],
                             "checked_elements": r["checked_elements"]})
                print(f"{name:<24} {'%d,%d,%d,%d,%d' % shape:<22} "
                      f"{r['median_milliseconds']:8.3f} {r['tflops']:8.1f} "
                      f"{100 * r['tflops'] / r['peak_tflops']:7.1f}")
    return rows


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
    parser.add_argument("--attention-only", action="store_true",
                        help="time the attention kernels only")
    parser.add_argument("--attention-shapes", nargs="+",
                        metavar="B,Hq,Hkv,Nq,Nkv",
                        help="time attention at these shapes instead")
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
    attention_shapes = ATTENTION
    if args.attention_shapes:
        try:
            attention_shapes = [tuple(int(x) for x in s.split(","))
                                for s in args.attention_shapes]
        except ValueError:
            attention_shapes = []
        if not attention_shapes or any(
                len(s) != 5 or min(s) <= 0 or s[1] % s[2]
                for s in attention_shapes):
            parser.error("--attention-shapes takes positive B,Hq,Hkv,Nq,Nkv "
                         "with Hq a multiple of Hkv, e.g. 16,64,8,8192,8192")
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
          f"{'% peak':>7} {'baseline TFLOPS':>15}")
    chosen = [v for v in hkbench.variants() if v.chip == chip]
    gemms = chosen + hkbench.layout_variants(chip) + \
        hkbench.fp8_variants(chip)
    for v in ([] if args.attention_only else gemms):
        for size in shapes:
            # The vendor baseline: rocBLAS for bf16, hipBLASLt for fp8 with
            # per-tensor scales (MXFP8 has none: hk-run notes it).
            library = "hipblaslt" if v.kernel in ("gemm_fp8", "gemm_fp8_4wave") \
                else "rocblas"
            p = hk_run(v, size, args, [f"--baseline={library}"])
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
                         "baseline": base})
            print(f"{v.key:<24} {'%d,%d,%d' % size:<20} "
                  f"{r['median_milliseconds']:8.3f} {r['tflops']:8.1f} "
                  f"{100 * r['tflops'] / r['peak_tflops']:7.1f} "
                  f"{base.get('tflops', float('nan')):15.1f}")
    attention = time_attention(chip, attention_shapes, args)
    path = hkbench.write_json(args.output, {
        "command": "benchmarks/hw-timing.py", "status": "timed",
        "chip": chip, "warmup": args.warmup, "iterations": args.iterations,
        "results": rows, "attention": attention})
    print(f"results: {path}")


if __name__ == "__main__":
    main()
