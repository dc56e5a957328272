#!/usr/bin/env python3
"""Every example of a family at every schedule its chip offers, on the ISA
executor (hk-run --backend=isa) against the LLVM-IR simulator, bit for bit.

    isa-matrix.py <bin dir> <examples dir> <family> <completion> [--seed=N]

family: PREFIX:CHIP, the examples whose name starts with PREFIX for CHIP
(gemm:gfx950, attention_bwd:gfx1201, ...);
completion: latest or random (hk-run --isa-completion). Each run is
`hk-run EXAMPLE --chip=... SCHEDULE --backend=isa --test=compare
--compare-backend=sim` at one small shape with tails, so the two backends
see the same inputs (a fused attention backward's dQ, added with atomics
in an order each backend chooses, within the fp64 check's tolerance;
everything else bit for bit). Prints a line per pair and a summary
"N bit-identical, N refused by the compiler, N different"; exits 1 when a
pair differs or the executor refuses a kernel the compiler built.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "CAPI", "Inputs"))
from compare import SCHEDULES  # noqa: E402  (the schedule table, shared)

# One small shape per workload, with tails in every tiled dimension.
GEMM = ["--size=150,100,96"]
BATCHED = ["--size=96,80,72", "--batch=2"]


def workload(name):
    if name.startswith("attention_fwd"):
        d = name.split("_d")[1].split("_")[0]
        return ["--attention=1,2,1,70,100," + d]
    if name.startswith("attention_bwd"):
        d = name.split("_d")[1].split("_")[0]
        return ["--attention-bwd=1,2,1,70,100," + d]
    return BATCHED if "batched" in name else GEMM


def flags(knobs):
    return ["--" + k for k in knobs.split()]


def main():
    bindir, examples, family, completion = sys.argv[1:5]
    extra = sys.argv[5:]
    prefix, chip = family.split(":")
    names = sorted(f[:-5] for f in os.listdir(examples)
                   if f.endswith(".mlir") and f.startswith(prefix) and
                   chip in f[:-5].split("_"))
    same = refused = different = 0
    for name in names:
        for knobs in SCHEDULES[chip]:
            command = [os.path.join(bindir, "hk-run"),
                       os.path.join(examples, name + ".mlir"),
                       "--chip=" + chip, "--backend=isa",
                       "--isa-completion=" + completion, "--test=compare",
                       "--compare-backend=sim"] + flags(knobs)
            command += workload(name) + extra
            run = subprocess.run(command, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            label = "%s [%s]" % (name, knobs or "synchronous")
            text = (run.stdout + run.stderr).strip().splitlines()
            last = text[-1] if text else ""
            if run.returncode == 0:
                same += 1
                print("same      " + label)
            elif run.returncode == 2 and "isa" not in run.stderr:
                refused += 1
                print("refused   " + label)
            else:
                different += 1
                print("DIFFERENT " + label + ": " + last)
    print("%d bit-identical, %d refused by the compiler, %d different" %
          (same, refused, different))
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
