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

# stores.mlir's expected outputs (the destinations start as zeros).
def write_shape(path, rows, cols, values):
    shape = "(%d,)" % cols if rows is None else "(%d, %d)" % (rows, cols)
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % shape
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    flat = [v for row in values for v in row] if rows is not None else values
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % len(flat), *flat))


write_shape(os.path.join(out, "T.npy"), 32, 64, [[X[i][j] for i in range(ROWS)] for j in range(COLS)])
P = [[0.0] * 50 for _ in range(40)]
for i in range(ROWS):
    for j in range(COLS):
        if 8 + j < 40 and 16 + i < 50:
            P[8 + j][16 + i] = X[i][j]
write_shape(os.path.join(out, "P.npy"), 40, 50, P)
write_shape(os.path.join(out, "CM.npy"), None, 32, colmax)
RS = [0.0] * 50
for i in range(ROWS):
    if 10 + i < 50:
        RS[10 + i] = rowsum[i]
write_shape(os.path.join(out, "RS.npy"), None, 50, RS)

# reads.mlir's expected outputs, from T, P, CM and RS above.
write(os.path.join(out, "R1.npy"), X)
write(os.path.join(out, "R2.npy"),
      [[X[i][j] if 8 + j < 40 and 16 + i < 50 else 0.0 for j in range(COLS)]
       for i in range(ROWS)])
write(os.path.join(out, "R3.npy"),
      [[f32(f32(X[i][j] + RS[10 + i] if 10 + i < 50 else X[i][j]) + colmax[j])
        for j in range(COLS)] for i in range(ROWS)])
# A row vector that ends inside a lane's run of 4 rows (47 - 10 = 37 rows in
# range): a 16-byte load partly past the end must keep its rows in range.
write_shape(os.path.join(out, "RS47.npy"), None, 47, RS[:47])
write(os.path.join(out, "R3-RS47.npy"),
      [[f32(f32(X[i][j] + RS[10 + i] if 10 + i < 47 else X[i][j]) + colmax[j])
        for j in range(COLS)] for i in range(ROWS)])
