"""Rewrites a .npy file for the attention backward tests, without NumPy:
  npy_edit.py to-f32 in.npy out.npy      bf16 bits (<u2) as float32 (exact)
  npy_edit.py add in.npy out.npy X       float32 values plus X
  npy_edit.py drop-row in.npy out.npy    the last row of the first dimension
Other helpers import read() and write().
"""
import struct, sys


def read(path):
    data = open(path, "rb").read()
    n = struct.unpack("<H", data[8:10])[0]
    header = eval(data[10:10 + n].decode())
    return header, data[10 + n:]


def write(path, descr, shape, body):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        descr, "(%s)" % "".join("%d, " % s for s in shape) if len(shape) > 1
        else "(%d,)" % shape[0])
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(body)


def main():
    command, source, dest = sys.argv[1:4]
    header, body = read(source)
    shape = list(header["shape"])
    if command == "to-f32":
        bits = struct.unpack("<%dH" % (len(body) // 2), body)
        write(dest, "<f4", shape, b"".join(struct.pack("<I", b << 16) for b in bits))
    elif command == "add":
        values = struct.unpack("<%df" % (len(body) // 4), body)
        write(dest, "<f4", shape,
              struct.pack("<%df" % len(values), *[v + float(sys.argv[4]) for v in values]))
    elif command == "drop-row":
        row = len(body) // shape[0]
        write(dest, header["descr"], [shape[0] - 1] + shape[1:], body[:-row])


if __name__ == "__main__":
    main()
