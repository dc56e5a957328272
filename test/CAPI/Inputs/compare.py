#!/usr/bin/env python3
"""The C API against hk-compile: each (source, options) pair is compiled by
both, through hkCompileModule (hk-capi-test compile) and hk-compile with
the same knobs as flags, and the code objects compared byte for byte. A
pair that hk-compile refuses must be refused by the C API too.

    compare.py <bin dir> <work dir> --examples <dir> [--all-schedules]
        [--only NAME,NAME,...]
    compare.py <bin dir> <work dir> --lower <dir>
    compare.py <bin dir> <work dir> --host <file> <chip>

--examples: every example at its fastest schedule, the first of its chip's
preference list that hk-compile accepts (--all-schedules: at every schedule
its chip offers, scripts/capi-matrix.sh; --only: the examples named).
--lower: every example lowered through the C API by name
(hk-to-rocdl-pipeline), which needs every op of it to verify. --host: each gpu.module of a host program through
hkCompileGpuModules against hk-compile --kernel=<its kernel>. Prints one
line per pair and "N same, N refused by both, N different"; exits 1 on any
difference."""
import os
import re
import subprocess
import sys

# The schedules a chip offers, as pipeline options (hk-compile takes each
# as --name=value).
SCHEDULES = {
    "gfx950": [
        "",
        "stages=2",
        "stages=2 unroll=2",
        "stages=2 direct-lds=true",
        "stages=2 unroll=2 direct-lds=true mma-priority=1",
        "stages=2 direct-lds=true schedule=ping-pong",
        "stages=2 direct-lds=true schedule=ping-pong-hk",
        "stages=2 direct-lds=true schedule=interleave",
        "workgroup-order=xcd",
    ],
    "gfx1201": ["", "stages=2", "stages=2 unroll=2"],
}
# Without --all-schedules: the fastest schedule first.
FASTEST_FIRST = {
    "gfx950": ["stages=2 direct-lds=true schedule=ping-pong",
               "stages=2 unroll=2 direct-lds=true mma-priority=1", ""],
    "gfx1201": ["stages=2 unroll=2", ""],
}


def run(command):
    return subprocess.run(command, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def compare_one(bindir, work, source, chip, knobs, counts, quick=False):
    """Compares one pair; with `quick`, a pair hk-compile refuses is not
    counted (the next schedule of the preference list is tried). Returns
    whether hk-compile accepted it."""
    tag = re.sub(r"[^A-Za-z0-9]+", "_", os.path.basename(source) + knobs)
    tool, capi = (os.path.join(work, tag + s) for s in (".tool", ".capi"))
    flags = ["--" + k for k in knobs.split()]
    t = run([os.path.join(bindir, "hk-compile"), source, "--chip=" + chip,
             "-o", tool] + flags)
    c = run([os.path.join(bindir, "hk-capi-test"), source,
             ("chip=%s %s" % (chip, knobs)).strip(), "compile", capi])
    name = "%s [%s]" % (os.path.basename(source), knobs or "default")
    if quick and t.returncode != 0 and c.returncode != 0:
        return False
    if t.returncode != 0 and c.returncode != 0:
        counts["refused"] += 1
        print("refused by both: " + name)
    elif t.returncode == 0 and c.returncode == 0 and read(tool) == read(capi):
        counts["same"] += 1
        print("same: " + name)
    else:
        counts["different"] += 1
        print("DIFFERENT: %s (hk-compile exit %d, C API exit %d)\n%s%s" %
              (name, t.returncode, c.returncode, t.stderr, c.stderr))
    return t.returncode == 0


def compare_host(bindir, work, host, chip, counts):
    out = os.path.join(work, "each-" + chip)
    os.makedirs(out, exist_ok=True)
    c = run([os.path.join(bindir, "hk-capi-test"), host, chip, "each", out])
    if c.returncode != 0:
        counts["different"] += 1
        print("DIFFERENT: hkCompileGpuModules failed\n" + c.stderr)
        return
    # gpu.module name -> its kernel, from the host program.
    text = open(host).read()
    modules = re.findall(r"gpu\.module @(\w+).*?gpu\.func @(\w+)", text, re.S)
    for module, kernel in modules:
        tool = os.path.join(work, "%s-%s.tool" % (chip, module))
        t = run([os.path.join(bindir, "hk-compile"), host, "--chip=" + chip,
                 "--kernel=" + kernel, "-o", tool])
        capi = os.path.join(out, module + ".hsaco")
        name = "%s %s (%s)" % (chip, module, kernel)
        if t.returncode == 0 and os.path.exists(capi) and \
                read(tool) == read(capi):
            counts["same"] += 1
            print("same: " + name)
        else:
            counts["different"] += 1
            print("DIFFERENT: %s\n%s" % (name, t.stderr))


def main():
    bindir, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    counts = {"same": 0, "refused": 0, "different": 0}
    if sys.argv[3] == "--lower":
        for source in sorted(os.listdir(sys.argv[4])):
            chip = re.search(r"gfx\d+", source).group(0)
            c = run([os.path.join(bindir, "hk-capi-test"),
                     os.path.join(sys.argv[4], source), chip, "pipeline"])
            lowered = c.returncode == 0 and "llvm.func" in c.stdout
            counts["same" if lowered else "different"] += 1
            print(("lowered: " if lowered else "NOT LOWERED: ") + source +
                  ("" if lowered else "\n" + c.stderr))
        print("%d lowered, %d not" % (counts["same"], counts["different"]))
        return 1 if counts["different"] else 0
    if sys.argv[3] == "--examples":
        every = "--all-schedules" in sys.argv
        table = SCHEDULES if every else FASTEST_FIRST
        only = None
        if "--only" in sys.argv:
            only = sys.argv[sys.argv.index("--only") + 1].split(",")
        for source in sorted(os.listdir(sys.argv[4])):
            if only is not None and source not in only:
                continue
            chip = re.search(r"gfx\d+", source).group(0)
            for knobs in table[chip]:
                accepted = compare_one(bindir, work,
                                       os.path.join(sys.argv[4], source),
                                       chip, knobs, counts, quick=not every)
                if accepted and not every:
                    break
    else:
        compare_host(bindir, work, sys.argv[4], sys.argv[5], counts)
    print("%d same, %d refused by both, %d different" %
          (counts["same"], counts["refused"], counts["different"]))
    return 1 if counts["different"] else 0


if __name__ == "__main__":
    sys.exit(main())
