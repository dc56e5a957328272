#!/usr/bin/env python3
"""Writes small valid .npy files of each dtype hk reads into DIR: the seeds
of hk-fuzz-npy (scripts/fuzz.sh, test/Fuzz)."""
import struct
import sys

for i, (descr, shape, item) in enumerate([("<f4", (2, 3), 4), ("<u2", (4,), 2),
                                          ("|u1", (1, 1, 2), 1), ("<f8", (), 8)]):
    dims = ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    count = 1
    for n in shape:
        count *= n
    with open("%s/seed%d.npy" % (sys.argv[1], i), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(bytes(count * item))
