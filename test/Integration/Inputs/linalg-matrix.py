#!/usr/bin/env python3
"""Every combination hk-linalg-to-kernels serves, for linalg-matrix.test.

  linalg-matrix.py <out-dir> <chip>   then   sh <out-dir>/run.sh <host.mlir> <out-dir> <hk-run>

writes <out-dir>/program.mlir, one host function per combination (matmul
and batch_matmul; layouts nn, nt, tn, tt; bf16 with no epilogue, the
accumulating form, the bias, the scale, and both; fp8 e4m3 and e5m2 in
the layout and form they serve), and <out-dir>/run.sh, which runs each
outlined kernel on the simulator with the hk-run flags saying what the
pass chose, at an odd shape, and counts the PASSes.
"""
import sys

out, chip = sys.argv[1], sys.argv[2]

LAYOUT_MAPS = {  # (A map, B map) over (m, n, k), before the batch loop
    "nn": ("m, k", "k, n"),
    "nt": ("m, k", "n, k"),
    "tn": ("k, m", "k, n"),
    "tt": ("k, m", "n, k"),
}


def matrix(batched, element):
    return "memref<%s%s>" % ("?x?x?x" if batched else "?x?x", element)


def function(name, batched, layout, element, c_type, form):
    """One host function; form is zero, accumulate, bias, scale or
    scale_bias (the scale and the bias after a zero fill)."""
    loops = "b, m, n, k" if batched else "m, n, k"
    prefix = "b, " if batched else ""
    a_map, b_map = LAYOUT_MAPS[layout]
    maps = ", ".join("affine_map<(%s) -> (%s%s)>" % (loops, prefix, m)
                     for m in (a_map, b_map, "m, n"))
    ab, c = matrix(batched, element), matrix(batched, c_type)
    par = ", ".join(['"parallel"'] * (3 if batched else 2))
    ids = "b, m, n" if batched else "m, n"
    identity = "affine_map<(%s) -> (%s)>" % (ids, ids)
    row = "affine_map<(%s) -> (n)>" % ids
    args = "%%A: %s, %%B: %s, %%C: %s" % (ab, ab, c)
    if "bias" in form:
        args += ", %bias: memref<?xf32>"
    if "scale" in form:
        args += ", %s: f32"
    lines = ["func.func @%s(%s) {" % (name, args)]
    if form != "accumulate":
        lines += ["  %%zero = arith.constant 0.0 : %s" % c_type,
                  "  linalg.fill ins(%%zero : %s) outs(%%C : %s)" % (c_type, c)]
    op = "linalg.batch_matmul" if batched else "linalg.matmul"
    lines.append("  %s indexing_maps = [%s] ins(%%A, %%B : %s, %s) outs(%%C : %s)"
                 % (op, maps, ab, ab, c))

    def to_f32(v):
        if c_type == "f32":
            return [], v
        return ["    %%e = arith.extf %s : %s to f32" % (v, c_type)], "%e"

    def from_f32(v):
        if c_type == "f32":
            return [], v
        return ["    %%t = arith.truncf %s : f32 to %s" % (v, c_type)], "%t"

    if "scale" in form:
        ext, x = to_f32("%y")
        trunc, r = from_f32("%p")
        lines += ["  linalg.generic {indexing_maps = [%s], iterator_types = [%s]}"
                  % (identity, par),
                  "      outs(%%C : %s) {" % c,
                  "  ^bb0(%%y: %s):" % c_type] + ext + [
                  "    %%p = arith.mulf %s, %%s : f32" % x] + trunc + [
                  "    linalg.yield %s : %s" % (r, c_type), "  }"]
    if "bias" in form:
        ext, x = to_f32("%y")
        trunc, r = from_f32("%q")
        lines += ["  linalg.generic {indexing_maps = [%s, %s], iterator_types = [%s]}"
                  % (row, identity, par),
                  "      ins(%%bias : memref<?xf32>) outs(%%C : %s) {" % c,
                  "  ^bb0(%%x: f32, %%y: %s):" % c_type] + ext + [
                  "    %%q = arith.addf %s, %%x : f32" % x] + trunc + [
                  "    linalg.yield %s : %s" % (r, c_type), "  }"]
    lines += ["  return", "}"]
    return "\n".join(lines)


def kernel_name(batched, layout, element, c_type, form):
    name = "gemm_" + ("fp8" if element.startswith("f8") else "bf16")
    if c_type != "bf16":
        name += "_c" + c_type
    if batched:
        name += "_batched"
    if element == "f8E5M2":
        name += "_e5m2"
    name += "_" + layout
    if form in ("accumulate", "scale", "scale_bias"):
        name += "_alpha_beta"
    if "bias" in form:
        name += "_bias"
    return name


def flags(batched, layout, form):
    f = ["--layout=" + layout]
    f.append("--size=80,48,64 --batch=3" if batched else "--size=200,130,100")
    # What the pass chose: beta = 1 where the matmul accumulates, the scale
    # as alpha (and as beta when accumulating; 0 after a zero fill).
    f.append({"zero": "", "accumulate": "--beta=1", "bias": "--bias=random",
              "scale": "--alpha=0.5 --beta=0",
              "scale_bias": "--alpha=2 --beta=0 --bias=random"}[form])
    return " ".join(x for x in f if x)


functions, runs = [], []
seen = set()
for batched in (False, True):
    for layout in LAYOUT_MAPS:
        for form in ("zero", "accumulate", "bias", "scale", "scale_bias"):
            c_type = "f32" if form == "accumulate" and layout in ("tn", "tt") else "bf16"
            combos = [("bf16", c_type)]
            if layout == "nt" and form == "zero":
                combos += [("f8E4M3FN", "bf16"), ("f8E5M2", "f32")]
            for element, c in combos:
                name = "%s_%s_%s_%s" % ("batch" if batched else "mm", layout,
                                        form, element.lower())
                functions.append(function(name, batched, layout, element, c, form))
                kernel = kernel_name(batched, layout, element, c, form)
                key = (kernel, flags(batched, layout, form))
                if key not in seen:
                    seen.add(key)
                    runs.append(key)

with open(out + "/program.mlir", "w") as f:
    f.write("\n\n".join(functions) + "\n")
with open(out + "/run.sh", "w") as f:
    f.write("set -u\npassed=0\n")
    for kernel, flag in runs:
        f.write('"$3" "$1" --chip=%s --kernel=%s %s > "$2/%s.out" 2>&1 && '
                'grep -q "^PASS" "$2/%s.out" && passed=$((passed + 1)) || '
                'echo "FAILED: %s %s"\n' % (chip, kernel, flag, kernel, kernel,
                                           kernel, flag))
    f.write('echo "$passed of %d kernels passed"\n' % len(runs))
