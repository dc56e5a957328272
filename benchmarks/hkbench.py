"""Shared pieces of the hk benchmarks: setup, the kernel variants, running
hk's tools, and writing results. Every benchmark checks what it measures
before it times it; a failed check stops the benchmark with a non-zero exit.
"""

import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build"))
BIN = os.path.join(BUILD, "bin")
RESULTS = os.path.join(ROOT, "benchmarks", "results")
LLVM_BIN = "/usr/lib/llvm-22/bin"
# HipKittens' own gfx950 loops, measured next to hk's kernels: from
# $HK_REFERENCE_DIR, by default the reference directory beside the checkout
# (docs/Hardware.md#reference-loops says what each file covers). Without
# them the comparison is skipped, with a note (quality-report.py).
REFERENCE_DIR = os.environ.get(
    "HK_REFERENCE_DIR",
    os.path.join(os.path.dirname(ROOT), "shared", "reference"))
# The bf16 GEMM's main loop, 2 K tiles per iteration.
HIPKITTENS_LOOP = os.path.join(REFERENCE_DIR, "hipkittens-gfx950-loop.s")
# The fp8 GEMM loops: name -> (file, K tiles of 128 in the file).
HIPKITTENS_FP8 = {
    "fp8-8wave": ("hipkittens-gfx950-fp8-8wave-loop.s", 31),
    "fp8-4wave": ("hipkittens-gfx950-fp8-4wave-loop.s", 31),
}
# The attention forward loops: name -> (file, KV tiles in the file). A tile
# is one wave's 32 queries x 64 keys x d, hk's gfx950 tile too.
HIPKITTENS_ATTENTION = {
    "d128": ("hipkittens-gfx950-attn-d128-loop.s", 4),
    "d64": ("hipkittens-gfx950-attn-d64-loop.s", 4),
    "causal-d128": ("hipkittens-gfx950-attn-causal-d128-loop.s", 2),
}


class Variant:
    """One pipeline configuration of a reference GEMM."""

    def __init__(self, chip, name, stages=1, direct=False, priority=0,
                 unroll=0, schedule="none", layout="nt", kernel="gemm_bf16",
                 dtype=None):
        self.chip, self.name = chip, name
        # Which example: gemm_bf16 (the reference), gemm_fp8, gemm_mxfp8;
        # the fp8 ones in the format `dtype` (hk-run --dtype).
        self.kernel, self.dtype = kernel, dtype
        self.stages, self.direct = stages, direct
        self.priority, self.unroll = priority, unroll
        self.schedule = schedule
        # Operand layout (hk-run --layout): "nt" is the reference example,
        # the others examples/gemm_bf16_<chip>_<layout>.mlir.
        self.layout = layout

    @property
    def k_tiles_per_iteration(self):
        """K tiles one iteration of the main loop computes."""
        return 2 if self.schedule.startswith("ping-pong") \
            else max(self.unroll, 1)

    @property
    def source(self):
        suffix = "" if self.layout == "nt" else f"_{self.layout}"
        return os.path.join(ROOT, "examples",
                            f"{self.kernel}_{self.chip}{suffix}.mlir")

    @property
    def key(self):
        return f"{self.chip}/{self.name}"

    def flags(self):
        """The options hk-compile and hk-run share."""
        f = [f"--chip={self.chip}", f"--stages={self.stages}"]
        if self.direct:
            f.append("--direct-lds")
        if self.priority:
            f.append(f"--mma-priority={self.priority}")
        if self.unroll:
            f.append(f"--unroll={self.unroll}")
        if self.schedule != "none":
            f.append(f"--schedule={self.schedule}")
        if self.dtype:
            f.append(f"--dtype={self.dtype}")
        return f

    def run_flags(self):
        """The options only hk-run takes."""
        return [] if self.layout == "nt" else [f"--layout={self.layout}"]

    def describe(self):
        return {"chip": self.chip, "name": self.name, "kernel": self.kernel,
                "dtype": self.dtype or "bf16", "stages": self.stages,
                "direct_lds": self.direct, "mma_priority": self.priority,
                "unroll": self.unroll or 1, "schedule": self.schedule,
                "layout": self.layout}


def variants():
    """Each chip's kernels from plain to the full HipKittens schedule."""
    return [
        Variant("gfx950", "sync"),
        Variant("gfx950", "stages2", stages=2),
        Variant("gfx950", "stages2+direct", stages=2, direct=True),
        Variant("gfx950", "hipkittens", stages=2, direct=True, priority=1),
        Variant("gfx950", "ping-pong-hk", stages=2, direct=True,
                schedule="ping-pong-hk"),
        Variant("gfx950", "ping-pong", stages=2, direct=True,
                schedule="ping-pong"),
        Variant("gfx1201", "sync"),
        Variant("gfx1201", "stages2", stages=2),
        Variant("gfx1201", "stages2+prio", stages=2, priority=1),
        Variant("gfx1201", "stages2+unroll2", stages=2, unroll=2),
    ]


def layout_variants(chip):
    """The other operand layouts, double-buffered (direct fills where the
    chip has them)."""
    return [Variant(chip, f"stages2-{layout}", stages=2,
                    direct=chip == "gfx950", layout=layout)
            for layout in ("nn", "tn", "tt")]


def fp8_variants(chip):
    """The fp8 GEMMs (both formats) and, on gfx950, MXFP8, double-buffered
    (direct fills where the chip has them)."""
    direct = chip == "gfx950"
    out = [Variant(chip, f"fp8-{dtype}-stages2", stages=2, direct=direct,
                   kernel="gemm_fp8", dtype=dtype)
           for dtype in ("e4m3", "e5m2")]
    if chip == "gfx950":
        out.append(Variant(chip, "fp8-4wave-e4m3-stages2", stages=2,
                           direct=True, kernel="gemm_fp8_4wave", dtype="e4m3"))
        out.append(Variant(chip, "mxfp8-e4m3-stages2", stages=2, direct=True,
                           kernel="gemm_mxfp8", dtype="e4m3"))
    return out


def fp8_schedule_variants():
    """gfx950's fp8 GEMMs with the schedules that matter for speed, each
    with the HipKittens loop of the same tiling (HIPKITTENS_FP8) or None."""
    def fp8(name, kernel, **kw):
        return Variant("gfx950", name, stages=2, direct=True, kernel=kernel,
                       dtype="e4m3", **kw)
    return [
        (fp8("fp8-8wave-stages2+direct", "gemm_fp8"), "fp8-8wave"),
        (fp8("fp8-8wave-ping-pong", "gemm_fp8", schedule="ping-pong"),
         "fp8-8wave"),
        (fp8("fp8-4wave-stages2+direct", "gemm_fp8_4wave"), "fp8-4wave"),
        (fp8("fp8-4wave-ping-pong", "gemm_fp8_4wave", schedule="ping-pong"),
         "fp8-4wave"),
        (fp8("fp8-4wave-interleave", "gemm_fp8_4wave",
             schedule="interleave"), "fp8-4wave"),
        (fp8("mxfp8-stages2+direct", "gemm_mxfp8"), None),
        (fp8("mxfp8-ping-pong", "gemm_mxfp8", schedule="ping-pong"), None),
    ]


def attention_variants():
    """(chip, head dim, name, flags, KV tiles per loop iteration) of each
    attention kernel variant."""
    out = []
    for chip in ("gfx950", "gfx1201"):
        for d in (64, 128):
            buffered = "stages2" + ("+direct" if chip == "gfx950" else "")
            flags = [f"--chip={chip}", "--stages=2"] + \
                (["--direct-lds"] if chip == "gfx950" else [])
            out.append((chip, d, "sync", [f"--chip={chip}"], 1))
            out.append((chip, d, buffered, flags, 1))
            out.append((chip, d, buffered + "+unroll2", flags + ["--unroll=2"],
                        2))
            if chip == "gfx950":
                # The ping-pong loop body holds two KV tiles (slots 0, 1).
                out.append((chip, d, "ping-pong",
                            flags + ["--schedule=ping-pong"], 2))
    return out


def unrolled(unroll):
    """The gfx950 HipKittens kernel with its K loop unrolled."""
    return Variant("gfx950", f"hipkittens+unroll{unroll}", stages=2,
                   direct=True, priority=1, unroll=unroll)


def setup():
    """Installs what is missing and builds, unless SKIP_SETUP is set."""
    if os.environ.get("SKIP_SETUP"):
        return
    subprocess.run([os.path.join(ROOT, "scripts", "setup.sh")], check=True,
                   stdout=subprocess.DEVNULL)


def fail(message):
    print(f"benchmark: error: {message}", file=sys.stderr)
    sys.exit(1)


def run(argv, ok=(0,)):
    """Runs a tool; returns its stdout, or stops the benchmark on an exit
    status outside `ok`."""
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode not in ok:
        fail(f"{' '.join(argv)} exited {p.returncode}: "
             f"{(p.stderr or p.stdout).strip()}")
    return p


def tool(name):
    return os.path.join(BIN, name)


def timed(argv):
    """Wall seconds and peak RSS (MiB) of one run of `argv`, which must
    succeed."""
    # stderr goes to a file: an unread pipe could fill up and stall the run.
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            fail(f"{' '.join(argv)} failed: {err.read().decode()}")
    return seconds, usage.ru_maxrss / 1024.0


def median(values):
    return statistics.median(values)


def check_on_simulator(v, size="512,512,512"):
    """The variant's GEMM against fp64 on the simulator (random test)."""
    out = run([tool("hk-run"), v.source, *v.flags(), *v.run_flags(),
               f"--size={size}",
               "--test=random", "--json"])
    result = json.loads(out.stdout)
    if not result.get("pass"):
        fail(f"{v.key} failed its check: {out.stdout}")
    return result


def write_json(name, payload):
    """Writes `payload` with the date and machine to `name` in
    benchmarks/results (or to `name` itself if it is a path)."""
    path = name if os.sep in name else os.path.join(RESULTS, name)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    payload = {"date": datetime.date.today().isoformat(),
               "machine": machine(), **payload}
    with open(path, "w") as f:
        json.dump(payload, f, indent=1)
        f.write("\n")
    return path


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count()}


def have(program):
    return shutil.which(program) is not None
