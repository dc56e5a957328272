"""Writes tile-algebra.mlir's input X (64 x 32 float32) and its expected
outputs O1..O5 as .npy files into a directory, computed here in Python
(fp64, rounded to float32 once per value) from the definitions in
tile-algebra.mlir. No NumPy needed:  tile_algebra_expected.py outdir
"""
import math, os, struct, sys

ROWS, COLS = 64, 32


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def bf16(x):
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def write(path, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (ROWS, COLS)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % (ROWS * COLS), *[v for row in values for v in row]))


out = sys.argv[1]
# Multiples of 1/8 in [-2.5, 2.5]: sums and differences are exact in f32.
X = [[((7 * i + 13 * j) % 41 - 20) / 8.0 for j in range(COLS)] for i in range(ROWS)]
colmax = [max(X[i][j] for i in range(ROWS)) for j in range(COLS)]
colsum = [sum(X[i][j] for i in range(ROWS)) for j in range(COLS)]
rowmax = [max(X[i]) for i in range(ROWS)]
rowsum = [sum(X[i]) for i in range(ROWS)]
write(os.path.join(out, "X.npy"), X)
write(os.path.join(out, "O1.npy"), [[colmax[j] for j in range(COLS)] for i in range(ROWS)])
write(os.path.join(out, "O2.npy"), [[rowsum[i]] * COLS for i in range(ROWS)])
write(os.path.join(out, "O3.npy"),
      [[f32(2.0 ** (X[i][j] - colmax[j])) if i <= j else -1.0 for j in range(COLS)]
       for i in range(ROWS)])
write(os.path.join(out, "O4.npy"),
      [[bf16(f32(X[i][j] * f32(1.1))) for j in range(COLS)] for i in range(ROWS)])
write(os.path.join(out, "O5.npy"),
      [[f32(rowmax[i] + colsum[j]) for j in range(COLS)] for i in range(ROWS)])
