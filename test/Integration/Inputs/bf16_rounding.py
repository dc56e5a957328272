"""Inputs and expected outputs of bf16-rounding-gfx1201.mlir (f32 -> bf16
-> f32 of a 16 x 16 tile) for each rounding mode, the expected ones from
exact rational arithmetic, not from the bit formulas the compiler uses.

  bf16_rounding.py OUTDIR

writes OUTDIR/X.npy: bit patterns around every rounding case (ties to even
and to odd, just below and above a tie, carries into the exponent,
subnormals, zeros, the largest finite values, some of which round to
infinity, and infinities, both signs); OUTDIR/Y_<mode>.npy: X rounded in
each mode; OUTDIR/N.npy: NaNs of both signs whose payloads lie in the low
half, the high half or both (truncated without a NaN check, the first
would read as infinities), which stay NaNs.
"""
import math, struct, sys
from fractions import Fraction

MODES = ("to_nearest_even", "to_nearest_away", "upward", "downward",
         "toward_zero")


def from_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def round_bf16(x, mode):
    if math.isinf(x) or x == 0:
        return x
    # 8 significant bits; subnormals share the smallest normal's spacing.
    e = max(math.frexp(abs(x))[1] - 1, -126)
    ulp = Fraction(2) ** (e - 7)
    q = Fraction(x) / ulp
    n = math.floor(q)
    rest = q - n
    up = {"to_nearest_even": rest > Fraction(1, 2) or
                             (rest == Fraction(1, 2) and n % 2 == 1),
          "to_nearest_away": rest > Fraction(1, 2) or
                             (rest == Fraction(1, 2) and x > 0),
          "upward": rest > 0,
          "downward": False,
          "toward_zero": rest > 0 and x < 0}[mode]
    r = (n + 1 if up else n) * ulp
    if abs(r) >= Fraction(2) ** 128:  # past bf16's largest finite value
        return math.copysign(math.inf, x)
    return math.copysign(0.0, x) if r == 0 else float(r)


def write_npy(path, bits):
    """A 16 x 16 float32 .npy of the given bit patterns (as bits, so that
    NaN payloads survive)."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (16, 16), }"
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode())
        f.write(struct.pack("<256I", *bits))


def to_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


highs = [0x3F80, 0x3F81, 0x4049, 0x404A, 0x0000, 0x0001, 0x007F, 0x0080,
         0x7F7E, 0x3FFF, 0x4000, 0x1234, 0x2B3C, 0x5A5A, 0x7F7F, 0x0100]
lows = [0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0x4000, 0xC000]
values = [from_bits(sign | (h << 16) | l) for sign in (0, 0x80000000)
          for h in highs for l in lows]
values[-1], values[-2] = math.inf, -math.inf
assert len(values) == 256 and not any(math.isnan(v) for v in values)
out = sys.argv[1]
write_npy(f"{out}/X.npy", [to_bits(v) for v in values])
for mode in MODES:
    write_npy(f"{out}/Y_{mode}.npy",
              [to_bits(round_bf16(v, mode)) for v in values])
nans = [sign | 0x7F800000 | (high << 16) | low
        for sign in (0, 0x80000000) for high in range(0, 128, 8)
        for low in (0x0001, 0x8000, 0xFFFF, 0x1234, 0x0000, 0x4000, 0x00FF,
                    0x7FFF)]
nans = [0x7FC00000 if b & 0x7FFFFFFF == 0x7F800000 else b for b in nans]
assert len(nans) == 256 and all(math.isnan(from_bits(b)) for b in nans)
write_npy(f"{out}/N.npy", nans)
