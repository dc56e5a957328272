#!/usr/bin/env python3
"""Every wait and barrier mutant of a kernel's final assembly, on the ISA
executor: each `s_waitcnt` with a vmcnt or lgkmcnt raised by one and
deleted, each `s_barrier` deleted, reassembled with llvm-mc and ld.lld
(as hk links code objects) and run with hk-run --backend=isa
--isa-completion=latest at a shape with tails. Prints one line per mutant
(caught by the poison check, by the LDS race detector, by the result check,
or not caught) and a summary; a mutant not caught either removes a wait or
barrier the kernel does not need at that shape, or is a miss to look at.

    scripts/isa-mutants.py <build dir> <example.mlir> <chip> [hk-compile
        schedule flags ...] -- <hk-run workload flags> [-- <another> ...]

With several workloads a mutant counts as caught when one of them catches
it (the first that does is named).

e.g. scripts/isa-mutants.py build examples/gemm_bf16_gfx950.mlir gfx950
         --stages=2 --direct-lds --schedule=ping-pong -- --size=301,203,600
         -- --size=301,203,611

Give shapes that take every path under test: a bf16 GEMM whose K is not a
multiple of 8 cannot fill tiles directly and takes its synchronous
fallback, so a K of 600 exercises the direct fills and one of 611 the
fallback.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

LLVM = "/usr/lib/llvm-22/bin"


def run(command):
    return subprocess.run(command, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def mutants(lines):
    """(description, mutated lines) for every wait and barrier."""
    for i, line in enumerate(lines):
        text = line.strip()
        if text.startswith("s_waitcnt ") and ("vmcnt" in text or
                                             "lgkmcnt" in text):
            yield "line %d `%s` deleted" % (i + 1, text), \
                lines[:i] + lines[i + 1:]
            for counter in ("vmcnt", "lgkmcnt"):
                m = re.search(counter + r"\((\d+)\)", text)
                limit = 15 if counter == "lgkmcnt" else 63
                if m and int(m.group(1)) < limit:
                    raised = line.replace(
                        m.group(0), "%s(%d)" % (counter, int(m.group(1)) + 1))
                    yield "line %d `%s` %s raised by one" % (
                        i + 1, text, counter), \
                        lines[:i] + [raised] + lines[i + 1:]
        elif text == "s_barrier":
            yield "line %d `s_barrier` deleted" % (i + 1), \
                lines[:i] + lines[i + 1:]


def classify(result):
    if result.returncode == 0:
        return "NOT CAUGHT"
    text = result.stdout + result.stderr
    if "LDS race" in text:
        return "caught (race)"
    if "has not written yet" in text or "no wait covers" in text:
        return "caught (poison)"
    if result.returncode == 1:
        return "caught (result)"
    return "error: " + text.strip().splitlines()[-1]


def main():
    args = sys.argv[1:]
    split = args.index("--") if "--" in args else len(args)
    build, source, chip = args[:3]
    schedule = args[3:split]
    workloads = [[]]
    for arg in args[split + 1:]:
        if arg == "--":
            workloads.append([])
        else:
            workloads[-1].append(arg)
    bindir = os.path.join(build, "bin")
    work = tempfile.mkdtemp()
    base = os.path.join(work, "kernel")
    compiled = run([os.path.join(bindir, "hk-compile"), source,
                    "--chip=" + chip, "-o", base + ".hsaco",
                    "--asm=" + base + ".s", "--launch=" + base + ".json"] +
                   schedule)
    if compiled.returncode:
        sys.exit(compiled.stderr)
    lines = open(base + ".s").read().split("\n")
    launch = json.load(open(base + ".json"))
    counts = {}
    for n, (what, mutated) in enumerate(mutants(lines)):
        stem = os.path.join(work, "m%d" % n)
        open(stem + ".s", "w").write("\n".join(mutated))
        if run([LLVM + "/llvm-mc", "-triple=amdgcn-amd-amdhsa",
                "-mcpu=" + chip, "-filetype=obj", stem + ".s", "-o",
                stem + ".o"]).returncode or \
           run([LLVM + "/ld.lld", "-shared", stem + ".o", "-o",
                stem + ".hsaco"]).returncode:
            sys.exit("cannot reassemble the mutant: " + what)
        text = open(base + ".json").read().replace(
            os.path.basename(launch.get("code_object", "kernel.hsaco")),
            os.path.basename(stem + ".hsaco"))
        open(stem + ".json", "w").write(text)
        for workload in workloads:
            verdict = classify(run([os.path.join(bindir, "hk-run"),
                                    stem + ".json", "--chip=" + chip,
                                    "--backend=isa",
                                    "--isa-completion=latest"] + workload))
            if verdict != "NOT CAUGHT":
                break
        counts[verdict] = counts.get(verdict, 0) + 1
        print("%-16s %s" % (verdict, what))
    print(", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
