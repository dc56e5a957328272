#!/usr/bin/env python3
"""Speed of the ISA executor (hk-run --backend=isa), with the simulator's
(--backend=sim, the reference implementation) beside it.

Each kernel runs at a shape where the executor takes 0.5 s or more: the
reference bf16 GEMMs of both chips at their fastest schedules (gfx950
HipKittens' 8-wave ping-pong with direct fills, gfx1201 double-buffered and
unrolled by 2), gfx950's fp8 (e4m3) and MXFP8 GEMMs (ping-pong), the
attention forward at d = 128 on both chips (gfx950 ping-pong, one of the two
schedules scripts/run.sh chooses between; gfx1201 double-buffered, as
run.sh) and the attention backward at d = 64 on gfx950 (dQ and dK/dV, the
default pipeline, as run.sh). Every
executor run uses --isa-completion=latest; the gfx950 GEMM also runs under
--isa-completion=random. Then the same kernels, shapes and inputs on the
simulator.

Checked, then timed: each hk-run checks its own result (GEMM: the random
test against fp64 on 16,384 random elements of C, --check-sample; attention:
every query row of O and LSE; backward: every element of dQ, dK and dV) and
a time counts only from a run that passed. A failed check (or a run that
stops) is reported in the table; the benchmark then exits 1 and leaves
benchmarks/results/isa-executor.json as it was (as does --only, which only
prints unless --output names a file).

The time is hk-run's own: the executor's (or simulator's) run of the kernel,
from loading the code object to its last wave, without compile, inputs or
check. Lane instructions are each backend's own count (the executor: each
machine instruction times the lanes EXEC enables; the simulator: each LLVM
IR instruction times its active lanes), so the two rates are in different
units; sim_over_isa, the ratio of their times on the same kernel and inputs,
is the like-for-like comparison. On a kernel with direct-to-LDS loads the
simulator runs the kernel twice (both asynchronous completion orders) and
counts one run's instructions: its reported rate is then half its rate per
run, which is given too.

The executor's target (issue): 20 M lane instructions per second on one
core. Neither backend uses more than one thread.

  benchmarks/isa-executor.py [--runs N] [--only TEXT] [--no-sim]
                             [--output FILE]     # SKIP_SETUP=1 on a built tree
"""

import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys

import hkbench

TARGET = 20e6  # lane instructions per second, one core
PING_PONG = ["--stages=2", "--direct-lds", "--schedule=ping-pong"]
GFX1201_FAST = ["--stages=2", "--unroll=2"]
GEMM_SIZE = "1024,1024,1024"
# GEMM: C's elements checked against fp64 (all of them would take ~15 s
# per 1024^3 run on this machine, ten times the executor's time).
GEMM_CHECK = ["--test=random", "--check-sample=16384"]
ATTENTION = "1,4,2,768,768,128"  # B, Hq, Hkv, Nq, Nkv, d
ATTENTION_BWD = "1,4,2,768,768,64"
RANDOM_SEED = 1


class Kernel:
    def __init__(self, name, chip, example, flags, workload, completion):
        self.name, self.chip, self.example = name, chip, example
        self.flags, self.workload = flags, workload
        self.completion = completion

    @property
    def key(self):
        return f"{self.chip} {self.name} ({self.completion})"

    @property
    def schedule(self):
        return " ".join(f[2:] for f in self.flags
                        if not f.startswith("--dtype")) or "default"

    @property
    def backward(self):
        return any(w.startswith("--attention-bwd") for w in self.workload)

    def argv(self, backend):
        argv = [hkbench.tool("hk-run"),
                os.path.join(hkbench.ROOT, "examples", self.example),
                f"--chip={self.chip}", *self.flags, *self.workload,
                f"--backend={backend}"]
        if backend == "isa":
            argv.append(f"--isa-completion={self.completion}")
            if self.completion == "random":
                argv.append(f"--seed={RANDOM_SEED}")
        # The backward's JSON has no counters: its text report has them.
        if not self.backward:
            argv.append("--json")
        return argv

    def command(self, backend):
        """The hk-run command line, from the checkout's root."""
        argv = self.argv(backend)
        return " ".join(["build/bin/hk-run",
                         os.path.relpath(argv[1], hkbench.ROOT), *argv[2:]])


def kernels():
    def gemm(name, chip, example, flags, completion="latest"):
        return Kernel(name, chip, example, flags,
                      [f"--size={GEMM_SIZE}", *GEMM_CHECK], completion)
    return [
        gemm("gemm-bf16", "gfx950", "gemm_bf16_gfx950.mlir", PING_PONG),
        gemm("gemm-bf16", "gfx950", "gemm_bf16_gfx950.mlir", PING_PONG,
             "random"),
        gemm("gemm-bf16", "gfx1201", "gemm_bf16_gfx1201.mlir", GFX1201_FAST),
        gemm("gemm-fp8-e4m3", "gfx950", "gemm_fp8_gfx950.mlir",
             PING_PONG + ["--dtype=e4m3"]),
        gemm("gemm-mxfp8-e4m3", "gfx950", "gemm_mxfp8_gfx950.mlir",
             PING_PONG + ["--dtype=e4m3"]),
        Kernel("attention-fwd-d128", "gfx950",
               "attention_fwd_bf16_d128_gfx950.mlir", PING_PONG,
               [f"--attention={ATTENTION}", "--test=random"], "latest"),
        Kernel("attention-fwd-d128", "gfx1201",
               "attention_fwd_bf16_d128_gfx1201.mlir", ["--stages=2"],
               [f"--attention={ATTENTION}", "--test=random"], "latest"),
        Kernel("attention-bwd-d64", "gfx950",
               "attention_bwd_bf16_d64_gfx950_deterministic.mlir", [],
               [f"--attention-bwd={ATTENTION_BWD}"], "latest"),
    ]


# One kernel's counters in hk-run's text report (RunReport.cpp).
COUNTERS = re.compile(
    r"compile (?P<compile>[\d.]+) s, simulate [\d.]+ s: (?P<wave>\d+) wave "
    r"instructions, (?P<lane>\d+) lane instructions \((?P<rate>[\d.]+) M/s\)")


def parse(kernel, stdout):
    """(pass, lane instructions, wave instructions, seconds, both orders)
    of one run's report."""
    if not kernel.backward:
        r = json.loads(stdout)
        return (r["pass"], r["lane_instructions"], r["wave_instructions"],
                r["simulate_seconds"], r.get("both_async_orders", False))
    # The dQ and the dK/dV kernel, one line each; the text gives each
    # kernel's time to 10 ms, so it is taken from its lane instructions and
    # rate (0.1 M/s, 3-4 digits) instead. The forward that gives O and LSE
    # runs first and is not counted.
    runs = [m.groupdict() for m in COUNTERS.finditer(stdout)]
    if len(runs) != 2:
        raise ValueError("no counters for the dQ and dK/dV kernels")
    lane = sum(int(r["lane"]) for r in runs)
    wave = sum(int(r["wave"]) for r in runs)
    seconds = sum(int(r["lane"]) / (float(r["rate"]) * 1e6) for r in runs)
    lines = stdout.splitlines()
    return (bool(lines) and lines[-1] == "PASS", lane, wave, seconds,
            "modelled both ways" in stdout)


def measure(kernel, backend, runs):
    """Runs `kernel` on `backend` `runs` times; a dict of the median run,
    or of the first that failed."""
    samples = []
    for _ in range(runs):
        argv = kernel.argv(backend)
        p = subprocess.run(argv, capture_output=True, text=True)
        try:
            passed, lane, wave, seconds, both = parse(kernel, p.stdout)
        except (ValueError, KeyError, json.JSONDecodeError):
            passed, lane, wave, seconds, both = False, None, None, None, False
        if p.returncode != 0 or not passed:
            message = (p.stderr.strip() or p.stdout.strip()).splitlines()
            return {"pass": False, "exit_status": p.returncode,
                    "command": kernel.command(backend),
                    "message": message[-1] if message else ""}
        samples.append((seconds, lane, wave, both))
    seconds = statistics.median(s[0] for s in samples)
    _, lane, wave, both = min(samples, key=lambda s: abs(s[0] - seconds))
    passes = 2 if both else 1
    out = {"pass": True, "lane_instructions": lane,
           "wave_instructions": wave, "seconds": round(seconds, 4),
           "m_lane_instructions_per_second": round(lane / seconds / 1e6, 2),
           "runs": runs, "seconds_each": [round(s[0], 4) for s in samples],
           "command": kernel.command(backend)}
    if backend == "sim":
        out["kernel_passes"] = passes
        out["m_lane_instructions_per_second_per_pass"] = round(
            passes * lane / seconds / 1e6, 2)
    return out


def row(kernel, isa, sim):
    r = {"name": kernel.name, "chip": kernel.chip,
         "example": kernel.example, "schedule": kernel.schedule,
         "flags": kernel.flags, "workload": kernel.workload,
         "isa_completion": kernel.completion, "pass": isa["pass"],
         "isa": isa, "sim": sim}
    if isa["pass"]:
        r["meets_target"] = isa["m_lane_instructions_per_second"] * 1e6 \
            >= TARGET
    if isa["pass"] and sim and sim["pass"]:
        r["sim_over_isa"] = round(sim["seconds"] / isa["seconds"], 2)
    if sim is not None and not sim["pass"]:
        r["pass"] = False
    return r


def print_row(r):
    isa, sim = r["isa"], r["sim"]
    what = f"{r['chip']} {r['name']} ({r['isa_completion']})"
    if not isa["pass"]:
        print(f"{what:<36} FAIL: {isa['message']}")
        return
    rate = isa["m_lane_instructions_per_second"]
    line = (f"{what:<36} {r['schedule']:<38} {isa['lane_instructions']:>10} "
            f"{isa['seconds']:6.2f} {rate:7.1f} "
            f"{'yes' if r['meets_target'] else 'NO':>5}")
    if sim is None:
        line += f" {'-':>7} {'-':>9} {'-':>7}"
    elif not sim["pass"]:
        line += f"  sim FAIL: {sim['message']}"
    else:
        per_pass = sim["m_lane_instructions_per_second_per_pass"]
        line += (f" {sim['seconds']:7.2f} "
                 f"{sim['m_lane_instructions_per_second']:4.1f}/"
                 f"{per_pass:<4.1f} {r['sim_over_isa']:6.1f}x")
    print(line)


def main():
    parser = argparse.ArgumentParser(
        description="Speed of the ISA executor (hk-run --backend=isa) "
        "against 20 M lane instructions/s, the simulator's beside it.")
    parser.add_argument("--runs", type=int, default=1,
                        help="checked runs per kernel and backend; the "
                        "median time counts (default 1)")
    parser.add_argument("--only", help="only the kernels whose "
                        "'chip name (completion)' contains this text "
                        "(printed; saved only with --output)")
    parser.add_argument("--no-sim", action="store_true",
                        help="skip the simulator's runs")
    parser.add_argument("--output", help="write the JSON here instead of "
                        "benchmarks/results/isa-executor.json")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be 1 or more")
    selected = [k for k in kernels() if not args.only or args.only in k.key]
    if not selected:
        parser.error(f"no kernel matches '{args.only}'")
    hkbench.setup()
    # The checkout and hk-run as the runs find them (hk-run may be older).
    commit = subprocess.run(
        ["git", "-C", hkbench.ROOT, "describe", "--always", "--dirty"],
        capture_output=True, text=True).stdout.strip()
    built = os.path.getmtime(hkbench.tool("hk-run"))
    print(f"{'kernel':<36} {'schedule':<38} {'isa lanes':>10} {'isa s':>6} "
          f"{'M/s':>7} {'>=20':>5} {'sim s':>7} {'sim M/s':>9} "
          f"{'sim/isa':>7}")
    rows = []
    for k in selected:
        isa = measure(k, "isa", args.runs)
        # The simulator has no completion modes: one run per kernel.
        sim = None if args.no_sim or k.completion != "latest" \
            else measure(k, "sim", args.runs)
        rows.append(row(k, isa, sim))
        print_row(rows[-1])
    print("(sim M/s: as hk-run reports it / per run of the kernel; "
          "sim/isa: the simulator's time over the executor's)")
    timed = [r["isa"] for r in rows if r["isa"]["pass"]]
    lanes = sum(t["lane_instructions"] for t in timed)
    seconds = sum(t["seconds"] for t in timed)
    overall = lanes / seconds / 1e6 if seconds else 0.0
    failed = [r for r in rows if not r["pass"]]
    met = sum(1 for r in rows if r.get("meets_target"))
    print(f"target {TARGET / 1e6:g} M lane instructions/s: {met} of "
          f"{len(rows)} runs meet it; all runs together {overall:.1f} M/s "
          f"({lanes} lane instructions in {seconds:.2f} s)")
    payload = {
        "command": "benchmarks/isa-executor.py" +
                   (f" --runs {args.runs}" if args.runs != 1 else ""),
        "commit": commit,
        "hk_run_built": datetime.datetime.fromtimestamp(
            built, datetime.timezone.utc).isoformat(timespec="seconds"),
        "target_lane_instructions_per_second": TARGET,
        "runs_meeting_target": met, "runs": len(rows),
        "all_runs_m_lane_instructions_per_second": round(overall, 2),
        "all_pass": not failed, "kernels": rows}
    # A failed or partial (--only) run leaves the saved results alone.
    if args.output or not (failed or args.only):
        path = hkbench.write_json(args.output or "isa-executor.json", payload)
        print(f"results: {path}")
    for r in failed:
        print(f"isa-executor: {r['chip']} {r['name']} ({r['isa_completion']})"
              " failed its check or did not run", file=sys.stderr)
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
