"""Writes a 1-D float32 .npy of n elements whose element i is eval(expr).
Test helper (no NumPy needed):  write_npy.py out.npy n "3 * (i % 256)"
"""
import struct, sys

path, n, expr = sys.argv[1], int(sys.argv[2]), sys.argv[3]
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<%df" % n, *[float(eval(expr, {"i": i})) for i in range(n)]))
