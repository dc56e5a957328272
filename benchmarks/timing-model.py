#!/usr/bin/env python3
"""hk-perf against hardware: the timing-model calibration set.

Runs hk-perf and llvm-mca-22 on every loop of the calibration set
($HK_REFERENCE_DIR/timing, by default shared/reference/timing beside the
checkout: gfx950 main loops with a loop MFMA efficiency measured on MI355X,
see its README.md and labels.json) and prints predicted against measured
loop MFMA efficiency, the error, and the rank order of both models. Writes
benchmarks/results/timing-model.json.

  benchmarks/timing-model.py [--json] [--fit] [--speed]

--fit redoes the fit of hk-perf's two fitted parameters (the procedure
lib/Perf/ChipTiming.cpp names) and prints the best values; --speed checks
that hk-perf times a 1000-instruction loop, 8 waves, 100 iterations in
under 1 s.

HipKittens' loop has no published loop efficiency: it runs at 1610 TFLOPS
like Gluon v8 (99%), so its target is Gluon v8's measured 99% (README.md of
the set). Errors are in percentage points.
"""

import argparse
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build"))
HK_PERF = os.path.join(BUILD, "bin", "hk-perf")
LLVM_MCA = os.environ.get("LLVM_MCA", "/usr/lib/llvm-22/bin/llvm-mca")
REFERENCE = os.environ.get(
    "HK_REFERENCE_DIR", os.path.join(os.path.dirname(ROOT), "shared", "reference"))
TIMING = os.path.join(REFERENCE, "timing")
V8_KERNEL = "gluon-v8-amdgcnas"
TOLERANCE = 5.0
FITTED = {  # name -> values scanned (lib/Perf/ChipTiming.cpp)
    "lds_latency": range(8, 65, 4),
    "valu_during_matrix_penalty": range(0, 7),
}


def run_hk_perf(path, entry, settings=()):
    cmd = [HK_PERF, path, "--chip=gfx950",
           f"--workgroup-waves={entry['waves_per_workgroup']}",
           f"--waves-per-simd={entry['waves_per_simd']}", "--json"]
    cmd += [f"--set={k}={v}" for k, v in settings]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"hk-perf failed on {path}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def run_llvm_mca(path, xdl_cycles):
    out = subprocess.run([LLVM_MCA, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx950",
                          "-iterations=100", path], capture_output=True, text=True)
    match = re.search(r"Total Cycles:\s+(\d+)", out.stdout)
    if out.returncode or not match:
        return None
    cycles = int(match.group(1)) / 100
    return {"cycles_per_trip": cycles, "mfma_pct": 100 * xdl_cycles / cycles}


def target(entry):
    measured = entry["measured"].get("mfma_eff_pct")
    return measured, measured if measured is not None else None


def load_entries():
    labels = os.path.join(TIMING, "labels.json")
    if not os.path.exists(labels):
        sys.exit(f"no calibration set at {TIMING} (set HK_REFERENCE_DIR)")
    entries = json.load(open(labels))["entries"]
    v8 = next(e for e in entries if e["kernel"] == V8_KERNEL)
    for e in entries:
        # No published efficiency: as fast as Gluon v8, so v8's target.
        e["target_pct"] = e["measured"].get("mfma_eff_pct",
                                            v8["measured"]["mfma_eff_pct"])
    return entries


def predict(entries, settings=()):
    return {e["file"]: 100 * run_hk_perf(os.path.join(TIMING, e["file"]), e,
                                         settings)["mfma_utilization"]
            for e in entries}


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: -values[i])
    r = [0] * len(values)
    for rank, i in enumerate(order):
        r[i] = rank + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    if n < 2:
        return 1.0
    d2 = sum((x - y) ** 2 for x, y in zip(ra, rb))
    return 1 - 6 * d2 / (n * (n * n - 1))


def fit(entries):
    """Grid search of the fitted parameters: least squares of the
    errors against each loop's target (lib/Perf/ChipTiming.cpp)."""
    names = list(FITTED)
    best = None
    for values in itertools.product(*(FITTED[n] for n in names)):
        settings = list(zip(names, values))
        pred = predict(entries, settings)
        sse = sum((pred[e["file"]] - e["target_pct"]) ** 2 for e in entries)
        if best is None or sse < best[0] - 1e-9:
            best = (sse, settings, pred)
    sse, settings, pred = best
    print("best fit (sum of squared errors %.2f):" % sse)
    for name, value in settings:
        print(f"  {name} = {value}")
    for e in entries:
        print(f"  {e['file']}: {pred[e['file']]:.1f}% (target {e['target_pct']}%)")


def speed_check():
    """1000 instructions, 8 waves (2 per SIMD), 100 iterations: < 1 s."""
    body = []
    for i in range(1000):
        k = i % 10
        if k < 6:
            body.append(f"v_mfma_f32_16x16x32_bf16 v[{4*(i%16)}:{4*(i%16)+3}], "
                        "v[64:67], v[68:71], v[%d:%d]" % (4*(i%16), 4*(i%16)+3))
        elif k < 8:
            body.append("ds_read_b128 v[72:75], v76")
        elif k == 8:
            body.append("s_waitcnt lgkmcnt(2)")
        else:
            body.append("v_add_f32 v80, v81, v82")
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(body) + "\n")
    start = time.perf_counter()
    out = subprocess.run([HK_PERF, f.name, "--chip=gfx950", "--workgroup-waves=8",
                          "--waves-per-simd=2", "--iterations=100", "--json"],
                         capture_output=True, text=True)
    seconds = time.perf_counter() - start
    os.unlink(f.name)
    if out.returncode:
        sys.exit(f"hk-perf failed on the speed loop: {out.stderr}")
    print(f"speed: 1000 instructions, 8 waves, 100 iterations: {seconds:.3f} s "
          f"({'ok' if seconds < 1 else 'TOO SLOW'}, limit 1 s)")
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--fit", action="store_true",
                        help="redo the fit of the fitted parameters")
    parser.add_argument("--speed", action="store_true",
                        help="check hk-perf's speed on a 1000-instruction loop")
    args = parser.parse_args()
    if not os.path.exists(HK_PERF):
        sys.exit(f"no {HK_PERF}: build hk-perf first")
    entries = load_entries()
    if args.fit:
        fit(entries)
        return 0
    rows = []
    for e in entries:
        path = os.path.join(TIMING, e["file"])
        perf = run_hk_perf(path, e)
        pred = 100 * perf["mfma_utilization"]
        mca = run_llvm_mca(path, perf["mfma_cycles_per_wave_iteration"])
        rows.append({
            "file": e["file"], "kernel": e["kernel"],
            "waves_per_workgroup": e["waves_per_workgroup"],
            "waves_per_simd": e["waves_per_simd"],
            "measured_pct": e["measured"].get("mfma_eff_pct"),
            "target_pct": e["target_pct"],
            "hk_perf_pct": pred,
            "hk_perf_cycles_per_trip": perf["cycles_per_iteration"],
            "hk_perf_error": pred - e["target_pct"],
            "llvm_mca_pct": mca["mfma_pct"] if mca else None,
            "llvm_mca_cycles_per_trip": mca["cycles_per_trip"] if mca else None,
            "llvm_mca_error": (mca["mfma_pct"] - e["target_pct"]) if mca else None,
        })
    targets = [r["target_pct"] for r in rows]
    summary = {
        "hk_perf_mean_abs_error": sum(abs(r["hk_perf_error"]) for r in rows) / len(rows),
        "hk_perf_rank_correlation": spearman([r["hk_perf_pct"] for r in rows], targets),
        "hk_perf_within_tolerance": all(abs(r["hk_perf_error"]) <= TOLERANCE for r in rows),
    }
    if all(r["llvm_mca_pct"] is not None for r in rows):
        summary["llvm_mca_mean_abs_error"] = sum(abs(r["llvm_mca_error"]) for r in rows) / len(rows)
        summary["llvm_mca_rank_correlation"] = spearman([r["llvm_mca_pct"] for r in rows], targets)
    result = {"set": TIMING, "tolerance_points": TOLERANCE, "loops": rows,
              "summary": summary,
              "rank_order": {
                  "measured": [r["kernel"] for r in sorted(rows, key=lambda r: -r["target_pct"])],
                  "hk_perf": [r["kernel"] for r in sorted(rows, key=lambda r: -r["hk_perf_pct"])],
                  "llvm_mca": [r["kernel"] for r in sorted(rows, key=lambda r: -(r["llvm_mca_pct"] or 0))]}}
    if args.speed:
        result["speed_seconds"] = speed_check()
    os.makedirs(os.path.join(ROOT, "benchmarks", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "benchmarks", "results", "timing-model.json"), "w") as f:
        json.dump(result, f, indent=1)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"{'loop':<22} {'w/WG':>4} {'w/SIMD':>6} {'target':>7} {'hk-perf':>8} {'err':>6} "
          f"{'llvm-mca':>9} {'err':>6}")
    for r in rows:
        mca = f"{r['llvm_mca_pct']:8.1f}% {r['llvm_mca_error']:+6.1f}" if r["llvm_mca_pct"] is not None else "     n/a"
        print(f"{r['kernel']:<22} {r['waves_per_workgroup']:>4} {r['waves_per_simd']:>6} "
              f"{r['target_pct']:6.0f}% {r['hk_perf_pct']:7.1f}% {r['hk_perf_error']:+6.1f} {mca}")
    print("rank order: measured " + " > ".join(result["rank_order"]["measured"]))
    print("            hk-perf  " + " > ".join(result["rank_order"]["hk_perf"]))
    print("            llvm-mca " + " > ".join(result["rank_order"]["llvm_mca"]))
    print("mean abs error: hk-perf %.1f points, llvm-mca %s; within %g points: %s" % (
        summary["hk_perf_mean_abs_error"],
        "%.1f" % summary["llvm_mca_mean_abs_error"] if "llvm_mca_mean_abs_error" in summary else "n/a",
        TOLERANCE, "yes" if summary["hk_perf_within_tolerance"] else "NO"))
    return 0 if summary["hk_perf_within_tolerance"] else 1


if __name__ == "__main__":
    sys.exit(main())
