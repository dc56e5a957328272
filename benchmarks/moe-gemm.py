#!/usr/bin/env python3
"""The MoE GEMMs (issue 55) next to the dense GEMM, in one run.

1. Checks: each MoE example runs on the simulator against fp64
   (hk-run --moe), at the schedule measured below.
2. Large M: the MoE kernel's main K loop against the dense GEMM's of the
   same type and schedule under hk-perf (the timing model of one CU, kernel
   mode): cycles per MFMA cycle of the steady loop (the loop with the
   highest MFMA utilisation), whose ratio is the ratio of cycles per MAC
   (same MFMA), and the MFMA share. Target: at most 1.02x. The same
   ratio under llvm-mca (one wave, gfx950 only: its gfx1201 model is no
   use), on the K loop (the innermost loop with the most matrix
   instructions), fp8 at the fp8 MFMA rate (quality-report.py's mca).
   Beside them the address work (the K loop's SALU and VALU instructions
   per MMA, MoE and dense) and the per-item cost (the persistent loop's own
   instructions, its nested loops taken out: the scheduler, the views and
   the epilogue of an item, counted statically).
3. Decode: the weight bytes the gathered kernel reads per token against the
   minimum (each needed expert's weights once), for T = 1..64 tokens, E =
   128, top-8, uniform routing, from the kernel's tiling: an item streams
   its n-tile of its expert's B for the whole K, and an expert is read once
   per m-tile it has. Padding rows lie past A: the copies' buffer loads
   fetch nothing for them. Target: at most 1.10x.

4. Combine: the atomic and the deterministic combine (gfx950, bf16) run
   on the simulator in shuffled workgroup orders (--shuffle-workgroups):
   how many elements of C differ between runs and by how much, and each
   form's simulated instructions and global bytes (the deterministic one's
   two kernels together).

    benchmarks/moe-gemm.py [--json]     -> benchmarks/results/moe-gemm.json
    benchmarks/quality-report.py --moe-only   (the large-M table alone)
"""

import argparse
import array
import ast
import importlib.util
import json
import os
import random
import re
import tempfile

import hkbench
from hkbench import ROOT, fail, run, tool

spec = importlib.util.spec_from_file_location(
    "quality_report", os.path.join(os.path.dirname(__file__),
                                   "quality-report.py"))
quality = importlib.util.module_from_spec(spec)
spec.loader.exec_module(quality)

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
    ("mxfp8 stages2+direct", "moe_gemm_mxfp8_contiguous_gfx950",
     "gemm_mxfp8_gfx950", "gfx950", ["--stages=2", "--direct-lds"], []),
    ("mxfp8 ping-pong", "moe_gemm_mxfp8_contiguous_gfx950",
     "gemm_mxfp8_gfx950", "gfx950",
     ["--stages=2", "--direct-lds", "--schedule=ping-pong"], []),
    ("bf16 gfx1201 stages2", "moe_gemm_bf16_contiguous_gfx1201",
     "gemm_bf16_gfx1201", "gfx1201", ["--stages=2", "--unroll=2"], []),
]


def perf_steady_loop(launch):
    """hk-perf's figures of the kernel's steady main loop: of its loops with
    matrix instructions, the one with the highest MFMA utilisation."""
    listing = run([tool("hk-perf"), launch]).stdout
    loops = re.findall(r"0x[0-9a-f]+", listing.split("loops:")[1]
                       .splitlines()[0])
    best = None
    for loop in loops:
        figures = json.loads(run([tool("hk-perf"), launch, "--json",
                                  f"--loop={loop}"]).stdout)
        if figures["mfma_cycles_per_wave_iteration"] == 0:
            continue
        if not best or figures["mfma_utilization"] > best["mfma_utilization"]:
            best = dict(figures, loop=loop)
    return best


def nested(inner, outer):
    return (inner is not outer and outer["first_line"] <= inner["first_line"]
            and inner["last_line"] <= outer["last_line"])


def class_totals(loop):
    return {c: e["total"] for c, e in loop["mix"].items()}


def k_loop(loops):
    """The K loop: of the innermost loops with matrix instructions, the one
    with the most (hk-report's main loop is the persistent loop around it)."""
    innermost = [l for l in loops if not any(nested(o, l) for o in loops)]
    with_mma = [l for l in innermost if "mma" in l["mix"]]
    return max(with_mma, key=lambda l: l["mix"]["mma"]["total"])


def per_item(loops):
    """The persistent loop's own instructions by class (those of the loops
    nested in it taken out, once each): an item's work outside its K loops,
    the scheduler's among it; None for a kernel without one."""
    outer = [l for l in loops if not any(nested(l, o) for o in loops)]
    outer = [l for l in outer if any(nested(i, l) for i in loops)]
    if not outer:
        return None
    items = max(outer, key=lambda l: l["instructions"])
    own = class_totals(items)
    for inner in loops:
        if nested(inner, items) and not any(
                nested(inner, mid) and nested(mid, items) for mid in loops):
            for c, n in class_totals(inner).items():
                own[c] = own.get(c, 0) - n
            own = {c: n for c, n in own.items() if n}
    own["total"] = sum(own.values())
    return own


def measure(source, chip, flags, tmp, name):
    """One compile: hk-perf's steady loop, llvm-mca on the K loop (gfx950:
    llvm-mca has no usable gfx1201 model), the K loop's and the per-item
    mixes, and the compile's spill warnings."""
    base = os.path.join(tmp, name)
    p = run([tool("hk-compile"), source, f"--chip={chip}", *flags,
             "-o", base + ".hsaco", "--asm=" + base + ".s",
             "--launch=" + base + ".json"])
    perf = perf_steady_loop(base + ".json")
    if not perf:
        fail(f"{source}: no loop with matrix instructions")
    loops = json.loads(run([tool("hk-report"), base + ".hsaco",
                            "--asm=" + base + ".s", "--json"]).stdout)["loops"]
    kl = k_loop(loops)
    body = base + ".loop.s"
    run([tool("hk-report"), base + ".hsaco", "--asm=" + base + ".s",
         "--loop=" + kl["header"], "--loop-body=" + body])
    mix = class_totals(kl)
    figures = {"perf": perf, "k_loop": kl["header"], "k_loop_mix": mix,
               "per_item": per_item(loops),
               "spill_warnings": [l for l in p.stderr.splitlines()
                                  if "spills" in l]}
    if chip == "gfx950":
        fp8 = "f8f6f4" in open(body).read()
        m = quality.mca(chip, body, 1, fp8_rate=fp8)
        figures["mca"] = dict(m, cycles_per_mma=m["cycles_per_k_tile"] /
                              mix["mma"], fp8_rate=fp8)
    return figures


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


def address_work(mix):
    """Scalar and vector ALU instructions per matrix instruction of a loop:
    the address and loop work around its MMAs."""
    return (mix.get("salu", 0) + mix.get("valu", 0)) / mix["mma"]


def large_m_row(label, moe, dense, chip, flags, run_flags, tmp, i):
    m = measure(EX + moe + ".mlir", chip, flags, tmp, f"moe{i}")
    d = measure(EX + dense + ".mlir", chip, flags, tmp, f"dense{i}")
    pm, pd = m["perf"], d["perf"]
    per_m = pm["cycles_per_iteration"] / pm["mfma_cycles_per_wave_iteration"]
    per_d = pd["cycles_per_iteration"] / pd["mfma_cycles_per_wave_iteration"]
    row = {
        "label": label, "moe": moe, "dense": dense, "flags": flags,
        "moe_loop": pm["loop"], "dense_loop": pd["loop"],
        "moe_cycles_per_mfma_cycle": per_m,
        "dense_cycles_per_mfma_cycle": per_d,
        "ratio": per_m / per_d,
        "moe_mfma_share": pm["mfma_utilization"],
        "dense_mfma_share": pd["mfma_utilization"],
        "moe_spills": m["spill_warnings"],
        "meets_1_02": per_m / per_d <= 1.02,
        "k_loop_alu_per_mma": {"moe": address_work(m["k_loop_mix"]),
                               "dense": address_work(d["k_loop_mix"])},
        "k_loop_mix": {"moe": m["k_loop_mix"], "dense": d["k_loop_mix"]},
        "per_item_outside_k_loop": m["per_item"],
    }
    if "mca" in m:
        ratio = m["mca"]["cycles_per_mma"] / d["mca"]["cycles_per_mma"]
        row["llvm_mca"] = {
            "moe": m["mca"], "dense": d["mca"], "ratio": ratio,
            "meets_1_02": ratio <= 1.02,
            "moe_mfma_share_meets_0_90": m["mca"]["mma_share"] >= 0.90}
    return row


# The combine's spread: one problem, the atomic and the deterministic kernel
# run with the workgroups in shuffled orders (simulator).
COMBINE = ("6,256,256,64,4", 8, range(1, 6))


def load_f32(path):
    """The values of a float32 .npy file (hk-run --save), stdlib only."""
    with open(path, "rb") as f:
        data = f.read()
    header_len = int.from_bytes(data[8:10], "little")
    header = ast.literal_eval(data[10:10 + header_len].decode())
    if header["descr"] != "<f4":
        fail(f"{path}: {header['descr']}, not float32")
    values = array.array("f")
    values.frombytes(data[10 + header_len:])
    return values


def combine_runs(source, chip, tmp, label):
    """C of each shuffled run, and the kernels' simulated instructions."""
    moe, workgroups, seeds = COMBINE
    runs, report = [], None
    for seed in seeds:
        path = os.path.join(tmp, f"{label}-{seed}.npy")
        out = run([tool("hk-run"), source, f"--chip={chip}", f"--moe={moe}",
                   f"--moe-workgroups={workgroups}",
                   f"--shuffle-workgroups={seed}", f"--save=2:{path}",
                   "--json"])
        report = json.loads(out.stdout)
        if not report.get("pass"):
            fail(f"{label}: seed {seed} failed its check: {out.stdout}")
        runs.append(load_f32(path))
    return runs, report


def spread(runs):
    """Elements that differ between any two runs, and the largest
    difference relative to the element's magnitude."""
    differing, worst = 0, 0.0
    for values in zip(*runs):
        lo, hi = min(values), max(values)
        if lo != hi:
            differing += 1
            worst = max(worst, (hi - lo) / max(abs(hi), abs(lo)))
    return differing, worst


def costs(report):
    """The simulated wave instructions and global bytes of a run, its
    kernels together (the deterministic form's sum kernel included)."""
    keys = ("wave_instructions", "global_bytes_read", "global_bytes_written")
    total = {k: report[k] for k in keys}
    if report.get("sum_kernel"):
        total["sum_kernel"] = {k: report["sum_kernel"][k] for k in keys}
        for k in keys:
            total[k] += report["sum_kernel"][k]
    return total


def combine_section(tmp):
    """The atomic and the deterministic combine (gfx950, bf16), each run in
    shuffled workgroup orders: the atomic one's run-to-run spread, the
    deterministic one's (none), and what each costs on the simulator."""
    rows = []
    for label, flags in (("atomic", []), ("deterministic",
                                           ["--deterministic"])):
        source = os.path.join(tmp, f"combine-{label}.mlir")
        run([tool("hk-gen"), "moe-gemm", "--chip=gfx950", "--groups=gathered",
             "--epilogue=combine", *flags, "-o", source])
        runs, report = combine_runs(source, "gfx950", tmp, label)
        differing, worst = spread(runs)
        rows.append({"kernel": label, "problem": COMBINE[0],
                     "workgroups": COMBINE[1], "orders": len(runs),
                     "elements": len(runs[0]),
                     "elements_differing": differing,
                     "max_relative_spread": worst,
                     "simulated": costs(report)})
    return rows


def large_m_rows():
    """Each LARGE_M kernel checked on the simulator, then measured beside
    its dense GEMM (large_m_row)."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, entry in enumerate(LARGE_M):
            check(*entry[1:2], *entry[3:])
            rows.append(large_m_row(*entry, tmp, i))
    return rows


def markdown(rows):
    """The large-M rows as the quality report's MoE table."""
    lines = ["| MoE kernel | hk-perf / dense | MFMA (hk-perf) | llvm-mca / "
             "dense | MMA share (llvm-mca) | K loop SALU+VALU per MMA (MoE "
             "/ dense) | per item outside K loops | spills |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        mca_ratio = mca_share = "-"
        if "llvm_mca" in r:
            mca_ratio = f"{r['llvm_mca']['ratio']:.3f}x"
            mca_share = f"{100 * r['llvm_mca']['moe']['mma_share']:.1f}%"
        item = r["per_item_outside_k_loop"]
        work = r["k_loop_alu_per_mma"]
        spills = "none"
        if r["moe_spills"]:
            spills = r["moe_spills"][0].split("spills ", 1)[-1].split(" (")[0]
        lines.append(
            f"| {r['label']} | {r['ratio']:.3f}x | "
            f"{100 * r['moe_mfma_share']:.1f}% | {mca_ratio} | {mca_share} | "
            f"{work['moe']:.2f} / {work['dense']:.2f} | "
            f"{item['total'] if item else '-'} | {spills} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    hkbench.setup()
    large = large_m_rows()
    decode = []
    for tokens in (1, 2, 4, 8, 16, 32, 64):
        read, minimum = decode_bytes(tokens)
        decode.append({"tokens": tokens, "weight_bytes_ratio": read / minimum,
                       "meets_1_10": read / minimum <= 1.10})
    with tempfile.TemporaryDirectory() as tmp:
        combine = combine_section(tmp)
    path = hkbench.write_json("moe-gemm.json", {
        "model": "hk-perf kernel mode (steady main loop); llvm-mca one "
                 "wave (gfx950, K loop, fp8 at the fp8 rate)",
        "llvm_mca_iterations": quality.MCA_ITERATIONS,
        "large_m": large, "decode": decode, "combine": combine})
    if args.json:
        print(json.dumps({"large_m": large, "decode": decode,
                          "combine": combine}, indent=1))
        return
    print("large M: the MoE main loop / the dense GEMM's (hk-perf, cycles "
          "per MAC; llvm-mca, one wave, gfx950, fp8 at the fp8 rate)")
    for r in large:
        print(f"  {r['label']:26s} {r['ratio']:.3f}x  MFMA "
              f"{100 * r['moe_mfma_share']:.1f}% (dense "
              f"{100 * r['dense_mfma_share']:.1f}%)"
              f"{'' if r['meets_1_02'] else '  MISSES 1.02x'}"
              f"{'  [' + r['moe_spills'][0].split(': ', 1)[-1] + ']' if r['moe_spills'] else ''}")
        if "llvm_mca" in r:
            c = r["llvm_mca"]
            print(f"  {'':26s} llvm-mca {c['ratio']:.3f}x  MFMA "
                  f"{100 * c['moe']['mma_share']:.1f}% (dense "
                  f"{100 * c['dense']['mma_share']:.1f}%)"
                  f"{'' if c['meets_1_02'] else '  MISSES 1.02x'}")
    print("address and scheduler work: K loop SALU+VALU per MMA (MoE / "
          "dense); per item outside the K loop (static instructions)")
    for r in large:
        w, item = r["k_loop_alu_per_mma"], r["per_item_outside_k_loop"]
        print(f"  {r['label']:26s} {w['moe']:.2f} / {w['dense']:.2f}; "
              f"per item {item['total'] if item else '-'} "
              f"({', '.join(f'{c} {n}' for c, n in sorted(item.items()) if c != 'total') if item else ''})")
    print("decode (E = 128, top-8, --small-m tiles 32x128): weight bytes "
          "read / minimum")
    for r in decode:
        print(f"  T = {r['tokens']:2d}: {r['weight_bytes_ratio']:.3f}")
    print(f"combine (gfx950 bf16, --moe={COMBINE[0]}, {COMBINE[1]} "
          f"workgroups, {len(COMBINE[2])} shuffled orders on the simulator)")
    for r in combine:
        c = r["simulated"]
        print(f"  {r['kernel']:14s} {r['elements_differing']} of "
              f"{r['elements']} elements differ between runs (max relative "
              f"{r['max_relative_spread']:.2e}); {c['wave_instructions']} "
              f"wave instructions, {c['global_bytes_read']} B read, "
              f"{c['global_bytes_written']} B written")
    print(f"results: {path}")


if __name__ == "__main__":
    main()
