"""Writes bf16-rounding-gfx1201.mlir's input X (16 x 16 float32: bit
patterns around every rounding case: ties to even and to odd, just below
and above a tie, carries into the exponent, subnormals, both signs, the
largest values that stay finite) and the expected f32(bf16(X)), rounded to
nearest even with exact rational arithmetic (not with the bit formula the
compiler uses).  bf16_rounding_expected.py outdir
"""
import math, os, struct, sys
from fractions import Fraction


def from_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def rne_bf16(x):
    if x == 0:
        return x
    # 8 significant bits; subnormals share the smallest normal's spacing.
    e = max(math.frexp(abs(x))[1] - 1, -126)
    ulp = Fraction(2) ** (e - 7)
    q = Fraction(x) / ulp
    n = math.floor(q)
    rest = q - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2 == 1):
        n += 1
    r = n * ulp
    assert abs(r) < Fraction(2) ** 128, "stays finite"
    return float(r)


highs = [0x3F80, 0x3F81, 0x4049, 0x404A, 0x0000, 0x0001, 0x007F, 0x0080,
         0x7F7E, 0x3FFF, 0x4000, 0x1234, 0x2B3C, 0x5A5A, 0x7F00, 0x0100]
lows = [0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0x4000, 0xC000]
values = []
for sign in (0, 0x80000000):
    for h in highs:
        for l in lows:
            values.append(from_bits(sign | (h << 16) | l))
assert len(values) == 256
expected = [rne_bf16(v) for v in values]
out = sys.argv[1]
for name, vs in (("X", values), ("Y", expected)):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (16, 16), }"
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(os.path.join(out, name + ".npy"), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<256f", *vs))
