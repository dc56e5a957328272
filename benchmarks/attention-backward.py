#!/usr/bin/env python3
"""The attention backward kernels' loops next to the forward's, in one run.

For each head dim on gfx950: the forward's best kernel (--stages=2
--direct-lds --unroll=2) and the backward's two kernels are compiled, each
checked on the simulator first (hk-run against fp64), then their main loops
measured with llvm-mca (one wave). Work is counted in MACs per wave and loop
trip, so the kernels compare per unit of work:

  forward  32 queries x 64 keys x d x 2 MMAs per KV tile
  dQ       32 queries x 64 keys x d x 3 (S^T, dP^T, dQ^T) per KV tile
  dK, dV   64 queries x 32 keys x d x 4 (S, dV^T, dP, dK^T) per query tile

On gfx1201 (no usable WMMA model in llvm-mca) the loops' instruction counts.
Writes benchmarks/results/attention-backward.json and prints a table.

  benchmarks/attention-backward.py        # SKIP_SETUP=1 on a built tree
"""

import importlib.util
import json
import os
import tempfile
import time

import hkbench

spec = importlib.util.spec_from_file_location(
    "quality_report", os.path.join(os.path.dirname(__file__),
                                   "quality-report.py"))
quality = importlib.util.module_from_spec(spec)
spec.loader.exec_module(quality)

# The simulator's check before the measurement: B, Hq, Hkv, Nq, Nkv.
CHECK = (1, 2, 1, 130, 100)


def loop(source, flags, kernel, base):
    """(resources of `kernel`, loop mix, loop body, compile seconds): the
    kernel compiled alone to a code object is timed (--kernel, no assembly,
    which would compile it a second time)."""
    start = time.perf_counter()
    hkbench.run([hkbench.tool("hk-compile"), source, *flags,
                 "--kernel=" + kernel, "-o", base + ".alone.hsaco"])
    seconds = time.perf_counter() - start
    hkbench.run([hkbench.tool("hk-compile"), source, *flags,
                 "-o", base + ".hsaco", "--asm=" + base + ".s"])
    report = json.loads(hkbench.run(
        [hkbench.tool("hk-report"), base + ".hsaco", "--asm=" + base + ".s",
         "--kernel=" + kernel, "--loop-body=" + base + ".loop.s",
         "--json"]).stdout)
    resources = next(k for k in report["kernels"] if k["name"] == kernel)
    return resources, report["main_loop"]["mix"], base + ".loop.s", seconds


def check(source, chip, d, backward, flags=()):
    b, hq, hkv, nq, nkv = CHECK
    option = "--attention-bwd" if backward else "--attention"
    out = hkbench.run([hkbench.tool("hk-run"), source, f"--chip={chip}",
                       *flags, f"{option}={b},{hq},{hkv},{nq},{nkv},{d}",
                       "--causal", "--json"], ok=(0, 1))
    if not json.loads(out.stdout)["pass"]:
        hkbench.fail(f"{os.path.basename(source)} failed its check on the "
                     f"simulator: {out.stdout}")


def rows_for(chip, d, tmp):
    examples = os.path.join(hkbench.ROOT, "examples")
    forward = os.path.join(examples, f"attention_fwd_bf16_d{d}_{chip}.mlir")
    backward = os.path.join(examples, f"attention_bwd_bf16_d{d}_{chip}.mlir")
    gfx950 = chip == "gfx950"
    fast = ["--stages=2", "--direct-lds", "--unroll=2"] if gfx950 else \
        ["--stages=2"]
    check(forward, chip, d, False, fast)
    check(backward, chip, d, True)
    queries, keys = (32, 64) if gfx950 else (16, 64 if d == 64 else 32)
    kernels = [
        ("forward " + " ".join(fast), forward, [f"--chip={chip}", *fast],
         f"attention_fwd_bf16_d{d}", 2 if gfx950 else 1,
         queries * keys * d * 2),
        ("backward dQ", backward, [f"--chip={chip}"],
         f"attention_bwd_dq_bf16_d{d}", 1, queries * keys * d * 3),
        ("backward dK dV", backward, [f"--chip={chip}"],
         f"attention_bwd_dkdv_bf16_d{d}", 1, keys * queries * d * 4)]
    rows = []
    for name, source, flags, kernel, trips, macs in kernels:
        base = os.path.join(tmp, f"{chip}-d{d}-{kernel}")
        resources, mix, body, seconds = loop(source, flags, kernel, base)
        row = {"chip": chip, "head_dim": d, "kernel": kernel, "name": name,
               "flags": flags, "macs_per_trip": macs * trips,
               "resources": resources, "compile_seconds": round(seconds, 2),
               "loop_mix": {c: e["total"] for c, e in mix.items()}}
        if gfx950:
            m = quality.mca(chip, body, 1)
            row["llvm_mca"] = {
                "cycles_per_trip": m["cycles_per_k_tile"],
                "mma_share": m["mma_share"],
                "cycles_per_1000_macs":
                    round(1000 * m["cycles_per_k_tile"] / (macs * trips), 3)}
        else:
            row["non_mma_instructions_per_trip"] = sum(
                n for c, n in row["loop_mix"].items() if c != "mma")
        rows.append(row)
    if gfx950:
        per_mac = rows[0]["llvm_mca"]["cycles_per_1000_macs"]
        for row in rows:
            row["llvm_mca"]["ratio_to_forward"] = round(
                row["llvm_mca"]["cycles_per_1000_macs"] / per_mac, 3)
    return rows


def describe(row):
    r = row["resources"]
    text = (f"{row['chip']} d{row['head_dim']} {row['name']:<40} "
            f"{r['vgprs']} VGPRs, {r.get('vgpr_spills', 0)} spilled, "
            f"{r.get('waves_per_simd')} waves/SIMD, compile "
            f"{row['compile_seconds']:g} s")
    if "llvm_mca" in row:
        m = row["llvm_mca"]
        text += (f"; {m['cycles_per_trip']:g} cycles per trip, MMA "
                 f"{100 * m['mma_share']:.0f}%, {m['cycles_per_1000_macs']:g} "
                 f"per 1000 MACs = {m['ratio_to_forward']:g} x the forward")
    else:
        text += (f"; {row['non_mma_instructions_per_trip']:g} non-MMA "
                 "instructions per trip")
    return text


def main():
    hkbench.setup()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for chip in ("gfx950", "gfx1201"):
            for d in (64, 128):
                for row in rows_for(chip, d, tmp):
                    print(describe(row))
                    rows.append(row)
    path = hkbench.write_json("attention-backward.json", {
        "command": "benchmarks/attention-backward.py",
        "llvm_mca_iterations": quality.MCA_ITERATIONS, "rows": rows})
    print(f"results: {path}")


if __name__ == "__main__":
    main()
