"""Writes acc-as-operand-*.mlir's inputs A (32 x 32), B (Q x 32), V
(32 x 32) as bf16 bits (uint16 .npy) and the expected O = V^T (A B^T)
(32 x Q float32) into a directory, Q 16 (default) or the second argument
(32 for the 32x32x16 MFMA). Small integers: every product and sum is exact
in bf16 and f32, so the check is exact. No NumPy needed.
"""
import os, struct, sys


def write(path, rows, cols, values, dtype):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % (dtype, rows, cols)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    fmt = {"<u2": "H", "<f4": "f"}[dtype]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (rows * cols, fmt), *[v for r in values for v in r]))


def bf16_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0] >> 16


out = sys.argv[1]
A = [[(3 * i + 5 * j) % 5 - 2 for j in range(32)] for i in range(32)]
queries = int(sys.argv[2]) if len(sys.argv) > 2 else 16
B = [[(7 * i + 2 * j) % 3 - 1 for j in range(32)] for i in range(queries)]
V = [[(i + 3 * j) % 3 - 1 for j in range(32)] for i in range(32)]
S = [[sum(A[kv][k] * B[q][k] for k in range(32)) for q in range(queries)] for kv in range(32)]
assert max(abs(x) for r in S for x in r) <= 256  # exact in bf16
O = [[sum(V[kv][d] * S[kv][q] for kv in range(32)) for q in range(queries)] for d in range(32)]
for name, m in (("A", A), ("B", B), ("V", V)):
    write(os.path.join(out, name + ".npy"), len(m), len(m[0]),
          [[bf16_bits(float(x)) for x in r] for r in m], "<u2")
write(os.path.join(out, "O.npy"), 32, queries, [[float(x) for x in r] for r in O], "<f4")
