#!/usr/bin/env python3
"""The attention backward's loops next to the forward's and to AITER's
fused backward, in one run.

For each head dim and chip: the forward's best kernel, the fused backward
(examples/attention_bwd_bf16_d<d>_<chip>.mlir: one pass over KV blocks,
five GEMMs per tile, dQ by fp32 atomics) and the deterministic pair
(..._deterministic.mlir: a dQ kernel and a dK/dV kernel, seven GEMMs for
the work of five) are compiled, the fused one also at --stages=2 and at
--stages=2 --defer-fill-stores (Q and dO stored to LDS after the tile's
MMAs), each checked on the simulator first
(hk-run against fp64), then their main loops measured with llvm-mca (one
wave). Work is counted in MACs per wave and loop trip:

  forward  32 queries x 64 keys x d x 2 MMAs per KV tile
  fused    64 queries x 32 keys x d x 5 (S, dV^T, dP, dK^T, dQ) per tile
  dQ       32 queries x 64 keys x d x 3 (S^T, dP^T, dQ^T) per KV tile
  dK, dV   64 queries x 32 keys x d x 4 (S, dV^T, dP, dK^T) per query tile

(gfx1201: the tiles of planBackwardTiles). "Per 1000 MACs of backward
work" counts the five GEMMs the backward needs: the fused loop does exactly
them, the pair does 7/5 of them (S and P twice). On gfx950 d = 128,
AITER's fused kernel's loop (aiter-gfx950-attn-bwd-d128-loop.s in
hkbench.REFERENCE_DIR, 2621440 MACs of the five GEMMs per trip) is
measured in the same llvm-mca run. On gfx1201 (no usable WMMA model in llvm-mca) the loops' non-WMMA
instructions per trip and per 1000 MACs of backward work.
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
                 "-o", base + ".hsaco", "--asm=" + base + ".s",
                 "--launch=" + base + ".json"])
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


# AITER's fused backward loop (gfx950, d = 128): MACs per wave and trip.
AITER_LOOP = ("aiter-gfx950-attn-bwd-d128-loop.s", 2621440)


def backward_tiles(chip, d):
    """(queries, keys) per trip of the fused and dK/dV loops, per wave
    (planBackwardTiles); the dQ loop's are the other way round."""
    if chip == "gfx950":
        return 64, 32
    return (32 if d == 64 else 16), 16


# MACs of one MMA instruction: 32x32x16 on gfx950, 16x16x16 on gfx1201.
MMA_MACS = {"gfx950": 32 * 32 * 16, "gfx1201": 16 * 16 * 16}


def measure(row, chip, body, macs):
    """Adds the loop's hk-perf estimate (the kernel's occupancy), and its
    llvm-mca estimate (gfx950) or its non-MMA instruction count (gfx1201),
    per trip and per 1000 MACs."""
    p = quality.hk_perf([body.replace(".loop.s", ".json"),
                         "--kernel=" + row["kernel"]], 1)
    row["hk_perf"] = {
        "cycles_per_trip": p["cycles_per_k_tile"],
        "mfma_utilization": p["mfma_utilization"],
        "cycles_per_1000_macs": round(1000 * p["cycles_per_k_tile"] / macs, 3)}
    if chip == "gfx950":
        m = quality.mca(chip, body, 1)
        row["llvm_mca"] = {
            "cycles_per_trip": m["cycles_per_k_tile"],
            "mma_share": m["mma_share"],
            "cycles_per_1000_macs":
                round(1000 * m["cycles_per_k_tile"] / macs, 3)}
    else:
        other = sum(n for c, n in row["loop_mix"].items() if c != "mma")
        row["non_mma_instructions_per_trip"] = other
        row["non_mma_per_1000_macs"] = round(1000 * other / macs, 3)


def rows_for(chip, d, tmp):
    examples = os.path.join(hkbench.ROOT, "examples")
    forward = os.path.join(examples, f"attention_fwd_bf16_d{d}_{chip}.mlir")
    fused = os.path.join(examples, f"attention_bwd_bf16_d{d}_{chip}.mlir")
    pair = os.path.join(examples,
                        f"attention_bwd_bf16_d{d}_{chip}_deterministic.mlir")
    gfx950 = chip == "gfx950"
    fast = ["--stages=2", "--direct-lds", "--unroll=2"] if gfx950 else \
        ["--stages=2"]
    check(forward, chip, d, False, fast)
    deferred = ["--stages=2", "--defer-fill-stores"]
    check(fused, chip, d, True)
    check(fused, chip, d, True, deferred)
    check(pair, chip, d, True)
    queries, keys = (32, 64) if gfx950 else (16, 64 if d == 64 else 32)
    tq, tk = backward_tiles(chip, d)
    kernels = [
        ("forward " + " ".join(fast), forward, [f"--chip={chip}", *fast],
         f"attention_fwd_bf16_d{d}", 2 if gfx950 else 1,
         queries * keys * d * 2, None),
        ("fused backward", fused, [f"--chip={chip}"],
         f"attention_bwd_fused_bf16_d{d}", 1, tq * tk * d * 5, 5),
        ("fused backward --stages=2", fused, [f"--chip={chip}", "--stages=2"],
         f"attention_bwd_fused_bf16_d{d}", 1, tq * tk * d * 5, 5),
        ("fused backward --stages=2 --defer-fill-stores", fused,
         [f"--chip={chip}", *deferred], f"attention_bwd_fused_bf16_d{d}", 1,
         tq * tk * d * 5, 5),
        ("deterministic dQ", pair, [f"--chip={chip}"],
         f"attention_bwd_dq_bf16_d{d}", 1, tk * tq * d * 3, 7),
        ("deterministic dK dV", pair, [f"--chip={chip}"],
         f"attention_bwd_dkdv_bf16_d{d}", 1, tq * tk * d * 4, 7)]
    rows = []
    for name, source, flags, kernel, trips, macs, gemms in kernels:
        base = os.path.join(tmp, f"{chip}-d{d}-{kernel}-{len(flags)}")
        resources, mix, body, seconds = loop(source, flags, kernel, base)
        row = {"chip": chip, "head_dim": d, "kernel": kernel, "name": name,
               "flags": flags, "macs_per_trip": macs * trips,
               "resources": resources, "compile_seconds": round(seconds, 2),
               "loop_mix": {c: e["total"] for c, e in mix.items()}}
        if gemms:
            row["gemms_for_five"] = gemms
        # The tiles above, checked against the loop's MMA instructions.
        if row["loop_mix"].get("mma", 0) * MMA_MACS[chip] != macs * trips:
            hkbench.fail(f"{kernel}: {row['loop_mix'].get('mma', 0)} MMAs "
                         f"per trip are not the {macs * trips} MACs counted")
        measure(row, chip, body, macs * trips)
        rows.append(row)
    if gfx950:
        per_mac = rows[0]["llvm_mca"]["cycles_per_1000_macs"]
        for row in rows:
            row["llvm_mca"]["ratio_to_forward"] = round(
                row["llvm_mca"]["cycles_per_1000_macs"] / per_mac, 3)
    return rows


def backward_work(rows, chip, d):
    """The fused loop and the pair per 1000 MACs of backward work (the five
    GEMMs), and AITER's loop beside them on gfx950 d = 128."""
    mine = [r for r in rows if r["chip"] == chip and r["head_dim"] == d]
    fused = [r for r in mine if r["name"].startswith("fused")]
    pair = [r for r in mine if r["name"].startswith("deterministic")]
    out = {"chip": chip, "head_dim": d}
    measures = [("hk_perf", "hk_perf", "cycles_per_1000_macs")]
    measures.append(("llvm_mca", "llvm_mca", "cycles_per_1000_macs")
                    if chip == "gfx950" else
                    ("non_mma_instructions", None, "non_mma_per_1000_macs"))
    for name, key, field in measures:
        def per_mac(r):
            return r[key][field] if key else r[field]
        # The pair's loops weighted by the MACs each executes, then 7/5.
        executed = sum(per_mac(r) * r["macs_per_trip"] for r in pair) / \
            sum(r["macs_per_trip"] for r in pair)
        out[name] = {"fused": per_mac(fused[0]),
                     "fused_stages2": per_mac(fused[1]),
                     "fused_deferred": per_mac(fused[2]),
                     "deterministic": round(executed * 7 / 5, 3)}
    if chip == "gfx950" and d == 128:
        path = os.path.join(hkbench.REFERENCE_DIR, AITER_LOOP[0])
        ref = quality.hipkittens_reference(path, 1, waves=(4, 1))
        if ref:
            mca, perf = out["llvm_mca"], out["hk_perf"]
            mca["aiter"] = round(1000 * ref["cycles_per_k_tile"] /
                                 AITER_LOOP[1], 3)
            perf["aiter"] = round(1000 * ref["hk_perf"]["cycles_per_k_tile"]
                                  / AITER_LOOP[1], 3)
            out["mma_share"] = {"fused": fused[0]["llvm_mca"]["mma_share"],
                                "aiter": ref["mma_share"]}
            for m in (mca, perf):
                m["best_fused_over_aiter"] = round(
                    min(m["fused"], m["fused_stages2"], m["fused_deferred"]) /
                    m["aiter"], 3)
    return out


def describe(row):
    r = row["resources"]
    text = (f"{row['chip']} d{row['head_dim']} {row['name']:<46} "
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
    p = row["hk_perf"]
    return text + (f"; hk-perf {p['cycles_per_trip']:g} cycles per trip "
                   f"(MFMA/WMMA {100 * p['mfma_utilization']:.0f}%)")


def describe_work(w):
    lines = []
    for name in ("llvm_mca", "hk_perf", "non_mma_instructions"):
        if name not in w:
            continue
        m = w[name]
        unit = "instructions" if name.startswith("non") else "cycles"
        text = (f"{w['chip']} d{w['head_dim']} {name} {unit} per 1000 MACs "
                f"of backward work (5 GEMMs): fused {m['fused']:g}, fused "
                f"--stages=2 {m['fused_stages2']:g}, fused --stages=2 "
                f"--defer-fill-stores {m['fused_deferred']:g}, deterministic "
                f"pair {m['deterministic']:g}")
        if "aiter" in m:
            text += (f", AITER {m['aiter']:g}; best fused = "
                     f"{m['best_fused_over_aiter']:g} x AITER")
        lines.append(text)
    if "mma_share" in w:
        lines.append(f"  llvm-mca MMA share: fused "
                     f"{100 * w['mma_share']['fused']:.0f}%, AITER "
                     f"{100 * w['mma_share']['aiter']:.0f}% (this script's "
                     "count: MFMA pipe cycles over total)")
    return "\n".join(lines)


def gfx950_work():
    """The gfx950 rows and backward-work figures (d = 64 and 128), for the
    quality report."""
    rows, work = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for d in (64, 128):
            rows += rows_for("gfx950", d, tmp)
            work.append(backward_work(rows, "gfx950", d))
    return rows, work


def markdown(work):
    """A table of the backward-work figures: cycles per 1000 MACs of the
    five GEMMs, each model, each form, and AITER's loop where measured."""
    out = ["| chip, d | model | fused | fused --stages=2 | fused --stages=2 "
           "--defer-fill-stores | deterministic pair | AITER | best fused / "
           "AITER |",
           "|---|---|---|---|---|---|---|---|"]
    for w in work:
        for name in ("llvm_mca", "hk_perf", "non_mma_instructions"):
            if name not in w:
                continue
            m = w[name]
            out.append(f"| {w['chip']} d{w['head_dim']} | {name} | "
                       f"{m['fused']:g} | {m['fused_stages2']:g} | "
                       f"{m['fused_deferred']:g} | "
                       f"{m['deterministic']:g} | {m.get('aiter', '-')} | "
                       f"{m.get('best_fused_over_aiter', '-')} |")
    return "\n".join(out) + "\n"


def main():
    hkbench.setup()
    rows, work = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for chip in ("gfx950", "gfx1201"):
            for d in (64, 128):
                for row in rows_for(chip, d, tmp):
                    print(describe(row))
                    rows.append(row)
                work.append(backward_work(rows, chip, d))
                print(describe_work(work[-1]))
    path = hkbench.write_json("attention-backward.json", {
        "command": "benchmarks/attention-backward.py",
        "llvm_mca_iterations": quality.MCA_ITERATIONS, "rows": rows,
        "backward_work": work})
    print(f"results: {path}")


if __name__ == "__main__":
    main()
