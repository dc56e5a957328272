"""Writes a .npy of dtype DTYPE and shape SHAPE (like 4x2) holding VALUES
(comma-separated, C order). Test helper (no NumPy needed):
    write_ids_npy.py out.npy '<i8' 4x2 0,1,2,3,1,0,3,2
"""
import struct, sys

path, dtype, shape, values = sys.argv[1:5]
dims = [int(d) for d in shape.split("x")]
numbers = [int(v) for v in values.split(",")] if values else []
code = {"|i1": "b", "|u1": "B", "<i2": "h", "<u2": "H", "<i4": "i",
        "<u4": "I", "<i8": "q", "<u8": "Q", "<f4": "f"}[dtype]
text = "(%s)" % (", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else ""))
header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (dtype, text)
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<%d%s" % (len(numbers), code), *numbers))
