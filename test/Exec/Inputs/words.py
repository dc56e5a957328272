#!/usr/bin/env python3
"""Writes and prints 1-D int32 .npy files as 32-bit words, in the short
notation the semantics-*.test files give inputs and expected results in.

    words.py write FILE TERM...   the words of the terms, in order
    words.py print FILE N         the words in rows of N, a line per row,
                                  "ROW: TERM TERM ..."

A term is a word in hex (`3f800000`), `W*N` (N copies of W, N decimal),
`A..B` (A, A+1, ..., B) or `A..B(+S)` / `A..B(-S)` (A, A+S or A-S, ...,
B). print writes each row from the left with the longest runs: copies of
three or more words, steps of four or more.
No NumPy needed.
"""

import struct
import sys


def expand(term):
    if "*" in term:
        word, count = term.split("*")
        return [int(word, 16)] * int(count)
    if ".." in term:
        first, last = term.split("..")
        step = 1
        if last.endswith(")"):
            last, step = last[:-1].split("(")
            step = int(step, 16)
        stop = int(last, 16) + (1 if step > 0 else -1)
        return list(range(int(first, 16), stop, step))
    return [int(term, 16)]


def compress(words):
    terms, i = [], 0
    while i < len(words):
        j = i + 1
        step = words[j] - words[i] if j < len(words) else 0
        while j < len(words) and words[j] - words[j - 1] == step:
            j += 1
        if j - i < (3 if step == 0 else 4):
            terms.append("%x" % words[i])
            i += 1
            continue
        if step == 0:
            terms.append("%x*%d" % (words[i], j - i))
        elif step == 1:
            terms.append("%x..%x" % (words[i], words[j - 1]))
        else:
            terms.append("%x..%x(%s%x)" % (words[i], words[j - 1],
                                           "+" if step > 0 else "-",
                                           abs(step)))
        i = j
    return " ".join(terms)


def write(path, terms):
    words = [w & 0xffffffff for t in terms for w in expand(t)]
    header = "{'descr': '<i4', 'fortran_order': False, 'shape': (%d,), }" % (
        len(words))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode())
        f.write(struct.pack("<%dI" % len(words), *words))


def show(path, n):
    data = open(path, "rb").read()
    start = 10 + struct.unpack("<H", data[8:10])[0]
    words = struct.unpack("<%dI" % ((len(data) - start) // 4), data[start:])
    for row in range(0, len(words), n):
        print("%d: %s" % (row // n, compress(list(words[row:row + n]))))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3:])
    else:
        show(sys.argv[2], int(sys.argv[3]))
