#!/usr/bin/env python3
"""Kernel quality report: every reference kernel variant side by side, so a
reader sees what each pass buys. For each variant:

  * resources (hk-report): VGPR/AGPR/SGPR, spills, scratch, LDS, waves/SIMD;
  * the main K loop's instruction mix per K tile, read from the assembly
    (hk-report --asm): MMAs, LDS reads/writes and global or direct-to-LDS
    loads by width, barriers, waits, s_setprio;
  * a static throughput estimate of that loop (llvm-mca for the chip): issue
    cycles per K tile of one wave, and the share of them the MMA pipe is busy;
  * the simulator's counters for one GEMM, after its random test passes:
    LDS accesses by width and bank-conflict ways, bytes moved per workgroup
    per K tile, arithmetic intensity.

  * for gfx950, HipKittens' own loops (from $HK_REFERENCE_DIR, by default
    the reference directory beside the checkout, described in
    docs/Hardware.md#reference-loops; the comparison is skipped, with a
    note, when they are absent), measured with llvm-mca in the same
    run, and each variant's ratio to them: the bf16 GEMM's main loop, and
    the attention forward loops (d 128, d 64, causal d 128) per KV tile of
    equal work (one wave's 32 queries x 64 keys);
  * gfx950's fp8 GEMMs (8-wave and 4-wave, double-buffered and ping-pong,
    MXFP8) next to HipKittens' fp8 loops, with llvm-mca at the fp8 MFMA
    rate and in its raw model (which charges an fp8 MFMA as a bf16 one,
    docs/Hardware.md#fp8-rate), with their ratios, spills and v_accvgpr
    moves;
  * the FlashAttention forward kernels (d 64 and 128, both chips,
    synchronous, double-buffered and double-buffered unrolled by 2; on
    gfx950 also the ping-pong schedule):
    resources, the K/V loop's mix per KV tile (MMAs, LDS traffic,
    cross-lane operations, v_exp_f32, waits), llvm-mca, and the simulator's
    counters for one attention after its random test.

    benchmarks/quality-report.py [--only gfx950/hipkittens ...]
                                 [--hipkittens-loop FILE] [--attention-only]
                                 [--fp8-only]
    benchmarks/quality-report.py --kernel k.hsaco k.s [--k-tiles-per-iteration U]

Writes benchmarks/results/quality-report.{json,md} and variants.svg; with
--only, prints the table for those variants instead; with --kernel, prints
the static part of the report (resources, loop mix, llvm-mca) for any
compiled kernel as JSON.
"""

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hkbench  # noqa: E402

# One GEMM per chip for the simulator's counters: 4 workgroups, 8 K tiles.
SIM_SIZE = {"gfx950": (512, 512, 512), "gfx1201": (256, 256, 512)}
MCA_ITERATIONS = 50


def compile_and_report(source, flags, base):
    """Compiles `source` with `flags` to `base`.*, then hk-report's JSON on
    it: (report, launch description's kernel, loop body file)."""
    hkbench.run([hkbench.tool("hk-compile"), source, *flags,
                 "-o", base + ".hsaco", "--asm=" + base + ".s",
                 "--launch=" + base + ".json"])
    report = json.loads(hkbench.run(
        [hkbench.tool("hk-report"), base + ".hsaco", "--asm=" + base + ".s",
         "--loop-body=" + base + ".loop.s", "--json"]).stdout)
    with open(base + ".json") as f:
        launch = json.load(f)["kernels"][0]
    return report, launch, base + ".loop.s"


def compile_variant(v, tmp):
    base = os.path.join(tmp, v.key.replace("/", "-").replace("+", "_"))
    return compile_and_report(v.source, v.flags(), base)


def loop_mix(report, tiles_per_iteration):
    """class -> {total, by_mnemonic} per K tile."""
    mix = {}
    for cls, entry in report["main_loop"]["mix"].items():
        mix[cls] = {"total": entry["total"] / tiles_per_iteration,
                    "by_mnemonic": {m: n / tiles_per_iteration
                                    for m, n in entry["by_mnemonic"].items()}}
    return mix


# llvm-mca 22.1.8 hangs on some loops with a v_permlane{16,32}_swap right
# after an s_nop (docs/Hardware.md#reference-loops). Each swap is measured
# as two v_mov_b32 on the same registers: one VALU slot each, as the swap
# takes, and on the loops that finish unmodified the cycles are the same.
PERMLANE_SWAP = re.compile(
    r"^(\s*)v_permlane(?:16|32)_swap_b32(?:_e32)?\s+(v\d+),\s*(v\d+)(.*)$")


def rewrite(lines, pattern, replacement):
    """`lines` with each line matching `pattern` replaced by the lines
    `replacement` makes of its groups."""
    out = []
    for line in lines:
        m = pattern.match(line)
        out += replacement(*m.groups()) if m else [line]
    return out


def without_permlane_swaps(lines):
    return rewrite(lines, PERMLANE_SWAP, lambda indent, a, b, rest: [
        f"{indent}v_mov_b32 {a}, {b}{rest}",
        f"{indent}v_mov_b32 {b}, {a}{rest}"])


# llvm-mca 22's gfx950 model holds the MFMA pipe 4 cycles for an fp8
# v_mfma(_scale)_f32_16x16x128_f8f6f4, as for a bf16 16x16x32 with a quarter
# of its MACs; at fp8's rate (twice bf16's per MAC) it is 8
# (docs/Hardware.md#fp8-rate). At the fp8 rate each is measured as
# v_mfma_f32_16x16x4_f32 (8 cycles in the same model) on the same
# accumulators, reading the last register of each fp8 operand; the other
# operand registers' and the block scales' reads are not modelled.
FP8_MFMA = re.compile(
    r"^(\s*)v_mfma(?:_scale)?_f32_16x16x128_f8f6f4\s+([av]\[\d+:\d+\]),\s*"
    r"([av])\[\d+:(\d+)\],\s*([av])\[\d+:(\d+)\],\s*([av]\[\d+:\d+\])"
    r"[^;]*(;.*)?$")


def at_fp8_rate(lines):
    return rewrite(lines, FP8_MFMA,
                   lambda indent, d, a, a_last, b, b_last, c, comment: [
                       f"{indent}v_mfma_f32_16x16x4_f32 {d}, {a}{a_last}, "
                       f"{b}{b_last}, {c}" +
                       (f"\t{comment}" if comment else "")])


def mca(chip, body, tiles_per_iteration, fp8_rate=False):
    """llvm-mca's estimate for one wave running the loop body alone; with
    `fp8_rate`, its fp8 MFMAs at their real cost (at_fp8_rate)."""
    # hk-report writes each instruction's class after it (`\t; mma`).
    with open(body) as f:
        lines = without_permlane_swaps(
            [line.strip() for line in f if line.strip()])
    if fp8_rate:
        rewritten = at_fp8_rate(lines)
        if rewritten == lines:
            hkbench.fail(f"{body}: no fp8 MFMA to measure at the fp8 rate")
        lines = rewritten
    measured = body + (".fp8-rate" if fp8_rate else "") + ".mca.s"
    with open(measured, "w") as f:
        f.write("\n".join(lines) + "\n")
    try:
        p = subprocess.run(
            [os.path.join(hkbench.LLVM_BIN, "llvm-mca"),
             "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={chip}",
             f"-iterations={MCA_ITERATIONS}", "-json", measured],
            capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        hkbench.fail(f"llvm-mca on {body} did not finish in 300 s")
    if p.returncode != 0:
        hkbench.fail(f"llvm-mca on {body}: {p.stderr.strip()}")
    region = json.loads(p.stdout)["CodeRegions"][0]
    mma = {i for i, line in enumerate(lines)
           if line.rpartition("; ")[2] == "mma"}
    mma_cycles = sum(r["ResourceUsage"] for r in
                     region["ResourcePressureView"]["ResourcePressureInfo"]
                     if r["InstructionIndex"] in mma)
    summary = region["SummaryView"]
    cycles = summary["TotalCycles"] / summary["Iterations"]
    return {"cycles_per_k_tile": round(cycles / tiles_per_iteration, 1),
            "mma_pipe_cycles_per_k_tile":
                round(mma_cycles / tiles_per_iteration, 1),
            "mma_share": round(mma_cycles / cycles, 3),
            "ipc": round(summary["IPC"], 3)}


def hk_perf(args, tiles):
    """hk-perf (docs/hardware/TimingModel.md: every wave of a CU) on a
    launch description (kernel mode: the kernel's occupancy) or a loop body
    with its wave counts: cycles per tile and wave, and the MFMA/WMMA
    utilisation (the mean over SIMDs, 0 to 1)."""
    r = json.loads(hkbench.run([hkbench.tool("hk-perf"), *args,
                                "--json"]).stdout)
    return {"cycles_per_k_tile": round(r["cycles_per_iteration"] / tiles, 1),
            "mfma_utilization": round(r["mfma_utilization"], 3),
            "workgroup_waves": r["workgroup_waves"],
            "waves_per_simd": r["waves_per_simd"]}


def perf_text(row):
    """`, hk-perf C cycles (MFMA U%)` for a row or reference with one."""
    p = row.get("hk_perf") if row else None
    if not p:
        return ""
    return (f"; hk-perf {p['cycles_per_k_tile']:g} cycles (MFMA "
            f"{100 * p['mfma_utilization']:.1f}%, {p['waves_per_simd']} "
            "waves/SIMD)")


def print_disagreements(rows, what):
    """Says which of `rows` (variants of one kernel on one chip) each model
    finds fastest when they differ: llvm-mca by cycles per tile, hk-perf by
    utilisation (equal MMA work per tile; occupancy may differ)."""
    groups = {}
    for r in rows:
        if "hk_perf" in r:
            key = (r["variant"]["chip"], r["variant"].get("kernel", what),
                   r["variant"].get("head_dim"), r["variant"].get("layout"))
            groups.setdefault(key, []).append(r)
    for (chip, kernel, d, _), group in groups.items():
        mca_best = min(group, key=lambda r: r["llvm_mca"]["cycles_per_k_tile"])
        perf_best = max(group,
                        key=lambda r: r["hk_perf"]["mfma_utilization"])
        if mca_best is not perf_best:
            name = kernel + (f" d={d}" if d else "")
            print(f"models disagree on {chip} {name}: llvm-mca prefers "
                  f"{mca_best['variant']['name']}, hk-perf "
                  f"{perf_best['variant']['name']}")


def hipkittens_reference(path, tiles=2, fp8_rate=False, waves=(8, 2)):
    """llvm-mca's estimate for a HipKittens gfx950 loop covering `tiles`
    tiles (the GEMM's: 2 K tiles per iteration), with its MFMAs marked as
    hk-report marks hk's; None, said on stderr, when the file is absent."""
    if not os.path.isfile(path):
        print(f"note: no HipKittens reference loop at {path} (set "
              "HK_REFERENCE_DIR); the comparison with it is skipped",
              file=sys.stderr)
        return None
    with tempfile.TemporaryDirectory() as tmp:
        body = os.path.join(tmp, "hipkittens.s")
        with open(path) as f, open(body, "w") as out:
            for line in f:
                if line.strip():
                    mark = "\t; mma" if line.strip().startswith("v_mfma") \
                        else "\t; other"
                    out.write(line.rstrip("\n") + mark + "\n")
        result = mca("gfx950", body, tiles, fp8_rate)
    # At HipKittens' real occupancy: 8 waves at 2 per SIMD, or 4 at 1.
    result["hk_perf"] = hk_perf(
        [path, "--chip=gfx950", f"--workgroup-waves={waves[0]}",
         f"--waves-per-simd={waves[1]}"], tiles)
    result["source"] = os.path.basename(path)
    return result


def hipkittens_fp8():
    """name -> {"raw", "fp8_rate"}: llvm-mca's estimates per K tile of
    HipKittens' fp8 GEMM loops (hkbench.HIPKITTENS_FP8), those present."""
    out = {}
    for name, (file, tiles) in hkbench.HIPKITTENS_FP8.items():
        path = os.path.join(hkbench.REFERENCE_DIR, file)
        waves = (4, 1) if "4wave" in name else (8, 2)
        raw = hipkittens_reference(path, tiles, waves=waves)
        if raw:
            out[name] = {"raw": raw, "fp8_rate": hipkittens_reference(
                path, tiles, fp8_rate=True, waves=waves)}
    return out


def gemm_row(v, tmp, fp8_rate=False):
    """A GEMM variant's row: resources, the main loop's mix per K tile,
    llvm-mca's estimate (also at the fp8 rate, with the loop's v_accvgpr
    moves, when `fp8_rate`), and the simulator's counters."""
    report, launch, body = compile_variant(v, tmp)
    tiles = v.k_tiles_per_iteration
    mix = loop_mix(report, tiles)
    row = {"variant": v.describe(),
           "resources": report["kernels"][0],
           "loop_per_k_tile": mix,
           "llvm_mca": mca(v.chip, body, tiles),
           "hk_perf": hk_perf([body[:-len(".loop.s")] + ".json"], tiles)}
    if fp8_rate:
        row["accvgpr_moves_per_k_tile"] = accvgpr_moves(mix)
        row["llvm_mca_fp8_rate"] = mca(v.chip, body, tiles, True)
    row["simulator"] = simulate(v, launch)
    return row


def accvgpr_moves(mix):
    """Copies between AGPRs and VGPRs per K tile in a loop mix."""
    return sum(n for m, n in mix.get("valu", {}).get("by_mnemonic", {}).items()
               if m.startswith("v_accvgpr"))


def fp8_rows(references):
    """gfx950's fp8 GEMM variants (hkbench.fp8_schedule_variants()): the
    llvm-mca estimate raw and at the fp8 rate, each with its ratio to the
    HipKittens loop of the same tiling in `references` (hipkittens_fp8())."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for v, ref in hkbench.fp8_schedule_variants():
            row = gemm_row(v, tmp, fp8_rate=True)
            ratios = ""
            if ref in references:
                for key, label in (("llvm_mca", "raw"),
                                   ("llvm_mca_fp8_rate", "fp8_rate")):
                    theirs = references[ref][label]["cycles_per_k_tile"]
                    row[key]["ratio_to_hipkittens"] = round(
                        row[key]["cycles_per_k_tile"] / theirs, 3)
                    row[key]["hipkittens"] = ref
                ratios = (f", {row['llvm_mca_fp8_rate']['ratio_to_hipkittens']:g}"
                          f" x HipKittens' {ref} (raw "
                          f"{row['llvm_mca']['ratio_to_hipkittens']:g} x)")
            rows.append(row)
            rate, raw = row["llvm_mca_fp8_rate"], row["llvm_mca"]
            print(f"{v.key:<34} {rate['cycles_per_k_tile']:g} cycles/K tile "
                  f"at the fp8 rate (MMA {100 * rate['mma_share']:.0f}%"
                  f"{ratios}); raw model {raw['cycles_per_k_tile']:g} "
                  f"(MMA {100 * raw['mma_share']:.0f}%), "
                  f"{row['resources']['vgprs']} VGPRs, "
                  f"{spills(row['resources'])}, "
                  f"{row['accvgpr_moves_per_k_tile']:g} v_accvgpr moves/K "
                  f"tile{perf_text(row)}")
    print_disagreements(rows, "fp8 GEMM")
    return rows


def fp8_section():
    """HipKittens' fp8 loops (printed) and gfx950's fp8 rows beside them."""
    references = hipkittens_fp8()
    print_fp8_references(references)
    return references, fp8_rows(references)


def spills(resources):
    """VGPR and SGPR spills, as hk-report counts them (SGPRs spill to VGPR
    lanes, not to scratch, but they are spills all the same)."""
    return (f"{resources['vgpr_spills']} VGPR + {resources['sgpr_spills']} "
            "SGPR spills")


def backward_section():
    """The attention backward on gfx950 per 1000 MACs of backward work,
    fused and deterministic, beside AITER's fused loop, from
    benchmarks/attention-backward.py."""
    spec = importlib.util.spec_from_file_location(
        "attention_backward",
        os.path.join(os.path.dirname(__file__), "attention-backward.py"))
    backward = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backward)
    rows, work = backward.gfx950_work()
    return backward, work


def moe_section():
    """The MoE GEMMs' large-M kernels beside their dense GEMMs, from
    benchmarks/moe-gemm.py: both models' ratios, the K loop's address work
    and the per-item work outside it (the scheduler's among it)."""
    spec = importlib.util.spec_from_file_location(
        "moe_gemm", os.path.join(os.path.dirname(__file__), "moe-gemm.py"))
    moe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(moe)
    rows = moe.large_m_rows()
    return moe, rows


def attention_section():
    """HipKittens' attention loops (printed) and the attention rows."""
    references = hipkittens_attention()
    print_attention_references(references)
    return references, attention_rows(references)


def print_fp8_references(references):
    for name, r in references.items():
        print(f"{'gfx950/HipKittens ' + name:<34} "
              f"{r['fp8_rate']['cycles_per_k_tile']:g} cycles/K tile at the "
              f"fp8 rate (MMA {100 * r['fp8_rate']['mma_share']:.0f}%); raw "
              f"model {r['raw']['cycles_per_k_tile']:g} "
              f"(MMA {100 * r['raw']['mma_share']:.0f}%){perf_text(r['raw'])}")


def hipkittens_attention():
    """name -> llvm-mca's estimate per KV tile of HipKittens' attention
    loops (hkbench.HIPKITTENS_ATTENTION), those present."""
    out = {}
    for name, (file, tiles) in hkbench.HIPKITTENS_ATTENTION.items():
        r = hipkittens_reference(os.path.join(hkbench.REFERENCE_DIR, file),
                                 tiles)
        if r:
            out[name] = r
    return out


def conflicts(accesses):
    """{width: {ways, accesses}} and the mean ways over all accesses."""
    out, total, weighted = {}, 0, 0
    for width, by_ways in accesses.items():
        n = sum(by_ways.values())
        w = sum(int(k.split("-")[0]) * c for k, c in by_ways.items())
        out[width] = {"accesses": n, "mean_ways": round(w / n, 2)}
        total, weighted = total + n, weighted + w
    return out, (round(weighted / total, 2) if total else None)


def simulate(v, launch):
    m, n, k = SIM_SIZE[v.chip]
    r = hkbench.check_on_simulator(v, f"{m},{n},{k}")
    tiles = {g["dim"]: g["tile"] for g in launch["grid"]}
    workgroups = (m // tiles[0]) * (n // tiles[1])
    # The kernels' K tile is 128 bytes of each row: 64 bf16, 128 fp8.
    k_tile = 128 if v.dtype else 64
    per = workgroups * (k // k_tile)
    reads, read_ways = conflicts(r["lds_accesses"]["reads"])
    writes, write_ways = conflicts(r["lds_accesses"]["writes"])
    flops = 2 * m * n * k
    return {"size": [m, n, k], "workgroups": workgroups,
            "k_tiles": k // k_tile, "max_abs_error": r["max_abs_error"],
            "lds_reads": reads, "lds_read_mean_ways": read_ways,
            "lds_writes": writes, "lds_write_mean_ways": write_ways,
            "direct_lds_loads": r["instruction_classes"].get("load_to_lds", 0),
            "global_bytes_read_per_k_tile": r["global_bytes_read"] // per,
            "lds_bytes_read_per_k_tile": r["lds_bytes_read"] // per,
            "lds_bytes_written_per_k_tile": r["lds_bytes_written"] // per,
            "arithmetic_intensity_flop_per_global_byte": round(
                flops / (r["global_bytes_read"] + r["global_bytes_written"]),
                1)}


# One attention per kernel for the simulator's counters (B, Hq, Hkv, N).
ATTENTION_SIM = (1, 4, 2, 256)


# The causal figure's sequence length, Nq = Nkv (issue 23's target).
CAUSAL_N = 8192


def mask_loop_header(report):
    """The mask-tile loop hk-split-loops peels: the first loop after the
    main one whose body holds mask selects; None if there is none."""
    main = report["main_loop"]
    for loop in report["loops"]:
        mix = loop["mix"]
        selects = mix.get("valu", {}).get("by_mnemonic", {})
        if loop["first_line"] > main["last_line"] and "mma" in mix and \
                "v_cndmask_b32_e32" in selects:
            return loop["header"]
    return None


def causal_with_mask_tiles(chip, base, report, launch, steady_cycles):
    """llvm-mca's estimate per KV tile of the mask-tile loop (its lines as
    laid out: the mask block and the copies that bypass it both counted, so
    an upper bound) and of a causal attention at Nq = Nkv = CAUSAL_N: a
    workgroup of W queries at q0 runs q0 / 64 tiles in the steady-state
    loop and its W / 64 diagonal tiles in the mask-tile loop."""
    header = mask_loop_header(report)
    if header is None:
        hkbench.fail(f"{base}.s: no mask-tile loop after the main loop")
    body = base + ".mask.s"
    hkbench.run([hkbench.tool("hk-report"), base + ".hsaco",
                 "--asm=" + base + ".s", "--loop=" + header,
                 "--loop-body=" + body])
    mask = mca(chip, body, 1)
    queries = launch["grid"][0]["tile"]
    starts = range(0, CAUSAL_N, queries)
    steady = sum(q0 // 64 for q0 in starts)
    diagonal = sum(min(queries, CAUSAL_N - q0) // 64 for q0 in starts)
    average = (steady * steady_cycles + diagonal *
               mask["cycles_per_k_tile"]) / (steady + diagonal)
    return {"mask_loop_cycles_per_kv_tile": mask["cycles_per_k_tile"],
            "causal_cycles_per_kv_tile": round(average, 1),
            "causal_tiles": {"steady": steady, "mask": diagonal,
                             "n": CAUSAL_N, "queries_per_workgroup": queries}}


def attention_row(chip, d, name, flags, tiles_per_iteration, tmp):
    source = os.path.join(hkbench.ROOT, "examples",
                          f"attention_fwd_bf16_d{d}_{chip}.mlir")
    base = os.path.join(tmp, f"attention-d{d}-{chip}-{name}".replace("+", "_"))
    report, launch, body = compile_and_report(source, flags, base)
    b, hq, hkv, n = ATTENTION_SIM
    p = hkbench.run([hkbench.tool("hk-run"), source, *flags,
                     f"--attention={b},{hq},{hkv},{n},{n},{d}",
                     "--test=random", "--json"])
    r = json.loads(p.stdout)
    if not r["pass"]:
        hkbench.fail(f"attention d{d} {chip} {name} failed its check")
    resources = report["kernels"][0]
    mix = loop_mix(report, tiles_per_iteration)
    # KV tiles each workgroup runs (all of them: not causal), of 64 keys
    # but gfx1201's at d = 128, of 32 (docs/Attention.md). Counting MMAs
    # would also count the S^T a loop with scores one tile ahead computes
    # past the end.
    workgroups = -(-n // launch["grid"][0]["tile"]) * hq * b
    tiles = -(-n // (32 if chip == "gfx1201" and d == 128 else 64))
    per = workgroups * tiles
    reads, read_ways = conflicts(r["lds_accesses"]["reads"])
    mca_row = mca(chip, body, tiles_per_iteration)
    if chip == "gfx950":
        mca_row.update(causal_with_mask_tiles(
            chip, base, report, launch, mca_row["cycles_per_k_tile"]))
    return {"variant": {"chip": chip, "name": f"attention-d{d}-{name}",
                        "head_dim": d, "flags": flags},
            "resources": resources,
            "loop_per_kv_tile": mix,
            "llvm_mca": mca_row,
            "hk_perf": hk_perf([base + ".json"], tiles_per_iteration),
            "simulator": {
                "attention": [b, hq, hkv, n, n, d],
                "max_abs_error_o": r["max_abs_error_o"],
                "kv_tiles_per_workgroup": round(tiles, 2),
                "lds_read_mean_ways": read_ways,
                "global_bytes_read_per_kv_tile":
                    round(r["global_bytes_read"] / per),
                "lds_bytes_read_per_kv_tile":
                    round(r["lds_bytes_read"] / per),
                "lds_bytes_written_per_kv_tile":
                    round(r["lds_bytes_written"] / per),
                "cross_lane_per_kv_tile": round(
                    r["instruction_classes"].get("cross_lane", 0) / per, 1),
                "exp2_per_kv_tile": round(
                    r["instruction_classes"].get("exp2", 0) / per, 1)}}


def attention_rows(references):
    """The attention variants' rows; gfx950's with their ratios to
    HipKittens' loops of the same head dim in `references`
    (hipkittens_attention()): the steady-state loop is the same code causal
    or not, so d128 is also compared with the causal kernel's off-diagonal
    tiles."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for chip, d, name, flags, tiles in hkbench.attention_variants():
            r = attention_row(chip, d, name, flags, tiles, tmp)
            rows.append(r)
            ratio = ""
            mca_row = r["llvm_mca"]
            for ref, key in ((f"d{d}", "ratio_to_hipkittens"),
                             (f"causal-d{d}", "ratio_to_hipkittens_causal")):
                if chip == "gfx950" and ref in references:
                    mca_row[key] = round(
                        mca_row["cycles_per_k_tile"] /
                        references[ref]["cycles_per_k_tile"], 3)
                    ratio += f", {mca_row[key]:g} x HipKittens' {ref}"
            causal = f"causal-d{d}"
            if "causal_cycles_per_kv_tile" in mca_row and \
                    causal in references:
                mca_row["causal_ratio_to_hipkittens_causal"] = round(
                    mca_row["causal_cycles_per_kv_tile"] /
                    references[causal]["cycles_per_k_tile"], 3)
                ratio += (f"; causal N={CAUSAL_N} with mask tiles "
                          f"{mca_row['causal_cycles_per_kv_tile']:g}, "
                          f"{mca_row['causal_ratio_to_hipkittens_causal']:g}"
                          f" x HipKittens' {causal}")
            print(f"{chip}/{r['variant']['name']:<34} mma "
                  f"{r['loop_per_kv_tile']['mma']['total']:g}/KV tile, "
                  f"{mca_row['cycles_per_k_tile']:g} cycles "
                  f"(MMA {100 * mca_row['mma_share']:.0f}%{ratio}), "
                  f"{r['resources']['vgprs']} VGPRs, "
                  f"{spills(r['resources'])}, "
                  f"{r['resources'].get('waves_per_simd')} waves/SIMD"
                  f"{perf_text(r)}")
    print_disagreements(rows, "attention")
    return rows


def print_attention_references(references):
    for name, r in references.items():
        print(f"{'gfx950/HipKittens attention ' + name:<41} "
              f"{r['cycles_per_k_tile']:g} cycles per KV tile "
              f"(MMA {100 * r['mma_share']:.0f}%)")


def fmt(x):
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:g}"
    return str(x)


def table(rows, loop, tile, classes, mca_rows, sim_rows):
    """A markdown table, one column per row of `rows`: resources, the loop
    mix per `tile` (from r[loop]) for `classes`, llvm-mca and the simulator
    figures (label, key) of `mca_rows` and `sim_rows`."""
    cols = [r["variant"]["chip"] + " " + r["variant"]["name"] for r in rows]
    lines = ["| | " + " | ".join(cols) + " |",
             "|---|" + "---|" * len(cols)]

    def row(label, get):
        lines.append(f"| {label} | " +
                     " | ".join(fmt(get(r)) for r in rows) + " |")

    k = lambda r: r["resources"]  # noqa: E731
    row("VGPRs (AGPRs)", lambda r: f"{k(r)['vgprs']} ({k(r)['agprs']})")
    row("SGPRs", lambda r: k(r)["sgprs"])
    row("spills VGPR + SGPR / scratch B", lambda r: f"{k(r)['vgpr_spills']}"
        f" + {k(r)['sgpr_spills']} / {k(r)['scratch_bytes']}")
    row("LDS bytes", lambda r: k(r)["lds_bytes"])
    row("waves/SIMD", lambda r: k(r).get("waves_per_simd"))
    for cls in classes:
        def get(r, cls=cls):
            e = r[loop].get(cls)
            if not e:
                return 0
            if cls in ("salu", "valu", "wait", "barrier", "mma"):
                return fmt(e["total"])
            return ", ".join(f"{fmt(n)} {m}"
                             for m, n in sorted(e["by_mnemonic"].items()))
        row(f"loop/{tile}: {cls}", get)
    for label, key, *field in mca_rows:
        source = field[0] if field else "llvm_mca"
        row(f"llvm-mca {label}",
            lambda r, key=key, source=source: r[source].get(key))
    for label, key in sim_rows:
        row(f"sim: {label}", lambda r, key=key: r["simulator"][key])
    return "\n".join(lines) + "\n"


def markdown(rows, reference=None):
    lines = []
    if reference:
        lines += [f"HipKittens' gfx950 loop ({reference['source']}), same "
                  f"llvm-mca run: {reference['cycles_per_k_tile']:g} cycles "
                  f"per K tile, MMA share {reference['mma_share']:g}.", "", ""]
    return "\n".join(lines) + table(
        rows, "loop_per_k_tile", "K tile",
        ["mma", "lds_read", "lds_write", "global_load", "direct_lds_load",
         "barrier", "wait", "setprio", "salu", "valu"],
        [("cycles/K tile (1 wave)", "cycles_per_k_tile"),
         ("MMA share", "mma_share"),
         ("cycles / HipKittens'", "ratio_to_hipkittens")],
        [("LDS read ways (mean)", "lds_read_mean_ways"),
         ("LDS write ways (mean)", "lds_write_mean_ways"),
         ("direct-to-LDS loads", "direct_lds_loads"),
         ("global B read /WG/K tile", "global_bytes_read_per_k_tile"),
         ("LDS B read /WG/K tile", "lds_bytes_read_per_k_tile"),
         ("LDS B written /WG/K tile", "lds_bytes_written_per_k_tile"),
         ("FLOP per global byte",
          "arithmetic_intensity_flop_per_global_byte")])


def fp8_markdown(rows, references):
    lines = []
    for name, r in references.items():
        lines.append(f"HipKittens' {name} loop ({r['raw']['source']}), same "
                     f"llvm-mca run: {r['fp8_rate']['cycles_per_k_tile']:g} "
                     "cycles per K tile at the fp8 rate (MMA share "
                     f"{r['fp8_rate']['mma_share']:g}), "
                     f"{r['raw']['cycles_per_k_tile']:g} raw (MMA share "
                     f"{r['raw']['mma_share']:g}).")
    head = "\n".join(lines) + "\n\n" if lines else ""
    rate = "llvm_mca_fp8_rate"
    return head + table(
        rows, "loop_per_k_tile", "K tile",
        ["mma", "lds_read", "direct_lds_load", "global_load", "barrier",
         "wait", "setprio", "salu", "valu"],
        [("cycles/K tile at the fp8 rate", "cycles_per_k_tile", rate),
         ("MMA share at the fp8 rate", "mma_share", rate),
         ("cycles / HipKittens' at the fp8 rate", "ratio_to_hipkittens",
          rate),
         ("cycles/K tile, raw model", "cycles_per_k_tile"),
         ("MMA share, raw model", "mma_share"),
         ("cycles / HipKittens', raw model", "ratio_to_hipkittens")],
        [("LDS read ways (mean)", "lds_read_mean_ways"),
         ("global B read /WG/K tile", "global_bytes_read_per_k_tile")])


def attention_markdown(rows, references):
    lines = []
    for name, r in references.items():
        lines.append(f"HipKittens' attention {name} loop ({r['source']}), "
                     f"same llvm-mca run: {r['cycles_per_k_tile']:g} cycles "
                     f"per KV tile, MMA share {r['mma_share']:g}.")
    head = "\n".join(lines) + "\n\n" if lines else ""
    return head + table(
        rows, "loop_per_kv_tile", "KV tile (per wave)",
        ["mma", "lds_read", "lds_write", "global_load", "direct_lds_load",
         "cross_lane", "transcendental", "barrier", "wait", "valu", "salu"],
        [("cycles/KV tile (1 wave)", "cycles_per_k_tile"),
         ("MMA share", "mma_share"),
         ("cycles / HipKittens' (same d)", "ratio_to_hipkittens"),
         ("cycles / HipKittens' causal", "ratio_to_hipkittens_causal"),
         ("cycles/mask tile (peeled loop)", "mask_loop_cycles_per_kv_tile"),
         (f"cycles/KV tile, causal N={CAUSAL_N} with mask tiles",
          "causal_cycles_per_kv_tile"),
         (f"causal N={CAUSAL_N} with mask tiles / HipKittens' causal",
          "causal_ratio_to_hipkittens_causal")],
        [("LDS read ways (mean)", "lds_read_mean_ways"),
         ("global B read /WG/KV tile", "global_bytes_read_per_kv_tile"),
         ("LDS B read /WG/KV tile", "lds_bytes_read_per_kv_tile"),
         ("LDS B written /WG/KV tile", "lds_bytes_written_per_kv_tile"),
         ("cross-lane /WG/KV tile", "cross_lane_per_kv_tile"),
         ("exp2 /WG/KV tile", "exp2_per_kv_tile")])


def svg(rows):
    """Horizontal bars per chip (each chip on its own scale): llvm-mca issue
    cycles per K tile per variant, the MMA pipe's busy share darker, with
    VGPRs and LDS read conflict ways beside."""
    bar_h, gap, left, width = 22, 10, 190, 420
    chips = sorted({r["variant"]["chip"] for r in rows}, reverse=True)
    height = 50 + sum(30 + (bar_h + gap) * sum(
        1 for r in rows if r["variant"]["chip"] == c) for c in chips) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" '
           f'width="{left + width + 360}" height="{height}" '
           'font-family="sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="10" y="20" font-size="14" font-weight="bold">hk '
           'reference GEMM variants: issue cycles per K tile of one wave '
           '(llvm-mca)</text>',
           '<text x="10" y="38" fill="#555">dark: MMA pipe busy; right: '
           'VGPRs, LDS read conflict ways (simulator); each chip on its own '
           'scale</text>']
    y = 50
    for chip in chips:
        group = [r for r in rows if r["variant"]["chip"] == chip]
        most = max(r["llvm_mca"]["cycles_per_k_tile"] for r in group)
        out.append(f'<text x="10" y="{y + 18}" font-weight="bold">{chip}'
                   '</text>')
        y += 30
        for r in group:
            total = r["llvm_mca"]["cycles_per_k_tile"]
            busy = r["llvm_mca"]["mma_pipe_cycles_per_k_tile"]
            w, wb = width * total / most, width * min(busy, total) / most
            out += [f'<text x="{left - 8}" y="{y + 15}" text-anchor="end">'
                    f'{r["variant"]["name"]}</text>',
                    f'<rect x="{left}" y="{y}" width="{w:.1f}" '
                    f'height="{bar_h}" fill="#9ecae1"/>',
                    f'<rect x="{left}" y="{y}" width="{wb:.1f}" '
                    f'height="{bar_h}" fill="#3182bd"/>',
                    f'<text x="{left + w + 6:.1f}" y="{y + 15}">{total:g} '
                    f'cycles, MMA {100 * r["llvm_mca"]["mma_share"]:.0f}%; '
                    f'{r["resources"]["vgprs"]} VGPRs; '
                    f'{fmt(r["simulator"]["lds_read_mean_ways"])}-way reads'
                    '</text>']
            y += bar_h + gap
    out.append("</svg>")
    return "\n".join(out) + "\n"


def report_kernel(hsaco, asm, tiles):
    """The static part of the report for one compiled kernel, as JSON."""
    for path in (hsaco, asm):
        if not os.path.isfile(path):
            hkbench.fail(f"cannot read '{path}'")
    with tempfile.TemporaryDirectory() as tmp:
        body = os.path.join(tmp, "loop.s")
        report = json.loads(hkbench.run(
            [hkbench.tool("hk-report"), hsaco, f"--asm={asm}",
             f"--loop-body={body}", "--json"]).stdout)
        result = {"kernel": hsaco, "chip": report["chip"],
                  "resources": report["kernels"][0],
                  "loop_per_k_tile": loop_mix(report, tiles),
                  "llvm_mca": mca(report["chip"], body, tiles)}
    print(json.dumps(result, indent=1))


def main():
    every = hkbench.variants() + [hkbench.unrolled(2)]
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", default=[],
                        metavar="CHIP/VARIANT",
                        help="report these variants only (repeatable): " +
                        ", ".join(v.key for v in every))
    parser.add_argument("--kernel", nargs=2, metavar=("K.hsaco", "K.s"),
                        help="report one compiled kernel instead (a code "
                        "object and its assembly, from hk-compile -o/--asm): "
                        "resources, loop mix and the llvm-mca estimate; "
                        "the simulator's counters need the source, see "
                        "hk-run")
    parser.add_argument("--hipkittens-loop", default=hkbench.HIPKITTENS_LOOP,
                        metavar="FILE", help="HipKittens' gfx950 main loop "
                        "to measure beside hk's (default: %(default)s)")
    parser.add_argument("--attention-only", action="store_true",
                        help="report the attention kernels only (printed, "
                        "the full report left alone)")
    parser.add_argument("--fp8-only", action="store_true",
                        help="report gfx950's fp8 GEMMs only, at the fp8 "
                        "MFMA rate and raw (printed, the full report left "
                        "alone)")
    parser.add_argument("--moe-only", action="store_true",
                        help="report the MoE GEMMs only (benchmarks/"
                        "moe-gemm.py's large-M kernels; printed, the full "
                        "report left alone)")
    parser.add_argument("--backward-only", action="store_true",
                        help="report the attention backward only (benchmarks/"
                        "attention-backward.py's gfx950 figures beside "
                        "AITER's loop; printed, the full report left alone)")
    parser.add_argument("--k-tiles-per-iteration", type=int, default=1,
                        metavar="U", help="with --kernel: K tiles one "
                        "iteration of its main loop does (its unroll factor)")
    args = parser.parse_args()
    if args.kernel:
        if args.only:
            parser.error("--kernel and --only do not go together")
        if args.k_tiles_per_iteration < 1:
            parser.error("--k-tiles-per-iteration must be at least 1")
        hkbench.setup()
        report_kernel(*args.kernel, args.k_tiles_per_iteration)
        return
    if args.moe_only:
        hkbench.setup()
        moe, rows = moe_section()
        print(moe.markdown(rows), end="")
        return
    if args.backward_only:
        hkbench.setup()
        backward, work = backward_section()
        print(backward.markdown(work), end="")
        return
    for only, section, markdown_of in (
            (args.fp8_only, fp8_section, fp8_markdown),
            (args.attention_only, attention_section, attention_markdown)):
        if only:
            hkbench.setup()
            references, rows = section()
            print()
            print(markdown_of(rows, references), end="")
            return
    unknown = set(args.only) - {v.key for v in every}
    if unknown:
        parser.error(f"unknown variant(s) {', '.join(sorted(unknown))}")
    chosen = [v for v in every if not args.only or v.key in args.only]
    hkbench.setup()
    reference = hipkittens_reference(args.hipkittens_loop)
    if reference:
        print(f"{'gfx950/HipKittens (reference)':<28} "
              f"{reference['cycles_per_k_tile']:g} cycles "
              f"(MMA {100 * reference['mma_share']:.0f}%){perf_text(reference)}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for v in chosen:
            row = gemm_row(v, tmp)
            ratio = ""
            if reference and v.chip == "gfx950":
                row["llvm_mca"]["ratio_to_hipkittens"] = round(
                    row["llvm_mca"]["cycles_per_k_tile"] /
                    reference["cycles_per_k_tile"], 3)
                ratio = (f", {row['llvm_mca']['ratio_to_hipkittens']:g} x "
                         "HipKittens'")
            rows.append(row)
            print(f"{v.key:<28} mma {row['loop_per_k_tile']['mma']['total']:g}"
                  f"/K tile, {row['llvm_mca']['cycles_per_k_tile']:g} cycles "
                  f"(MMA {100 * row['llvm_mca']['mma_share']:.0f}%{ratio}), "
                  f"{row['resources']['vgprs']} VGPRs, LDS reads "
                  f"{row['simulator']['lds_read_mean_ways']}-way"
                  f"{perf_text(row)}")
    print_disagreements(rows, "bf16 GEMM")
    if args.only:
        # A subset leaves the full report in benchmarks/results alone.
        print()
        print(markdown(rows, reference), end="")
        return
    fp8_references, fp8 = fp8_section()
    attention_references, attention = attention_section()
    moe, moe_rows = moe_section()
    backward, backward_work = backward_section()
    path = hkbench.write_json("quality-report.json", {
        "command": "benchmarks/quality-report.py",
        "llvm_mca_iterations": MCA_ITERATIONS,
        "hipkittens_reference": reference, "variants": rows,
        "hipkittens_fp8": fp8_references, "fp8": fp8,
        "hipkittens_attention": attention_references,
        "attention": attention, "moe": moe_rows,
        "attention_backward": backward_work})
    md = os.path.join(hkbench.RESULTS, "quality-report.md")
    with open(md, "w") as f:
        f.write(markdown(rows, reference))
        f.write("\nfp8 GEMMs on gfx950, llvm-mca at the fp8 MFMA rate (each "
                "fp8 MFMA 8 cycles, docs/Hardware.md#fp8-rate) and in the raw "
                "model (4):\n\n")
        f.write(fp8_markdown(fp8, fp8_references))
        f.write("\nFlashAttention forward kernels (simulator: "
                "B,Hq,Hkv,N = %d,%d,%d,%d, not causal):\n\n" % ATTENTION_SIM)
        f.write(attention_markdown(attention, attention_references))
        f.write("\nMoE GEMMs (gfx950 large M, gfx1201 bf16; "
                "benchmarks/moe-gemm.py), each beside the dense GEMM of the "
                "same type and schedule:\n\n")
        f.write(moe.markdown(moe_rows))
        f.write("\nAttention backward on gfx950 (benchmarks/"
                "attention-backward.py), cycles per 1000 MACs of backward "
                "work (the five GEMMs; the deterministic pair does 7/5 of "
                "them), beside AITER's fused loop:\n\n")
        f.write(backward.markdown(backward_work))
    with open(os.path.join(hkbench.RESULTS, "variants.svg"), "w") as f:
        f.write(svg(rows))
    print(f"results: {path}, {md}, "
          f"{os.path.join(hkbench.RESULTS, 'variants.svg')}")


if __name__ == "__main__":
    main()
