"""Checks the orders hk-run-shuffle-workgroups.test saved (int32 .npy files
of workgroup ids, in the order the workgroups ran), without NumPy:
  workgroup_order.py identity a.npy       a is 0, 1, 2, ...
  workgroup_order.py shuffled a.npy b.npy  each a permutation of 0..n-1 other
                                          than the identity, and a != b
Prints what it found; exits 1 if the check fails.
"""
import os, struct, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from npy_edit import read


def order(path):
    header, body = read(path)
    if header["descr"] != "<i4":
        sys.exit("%s: not int32 but %s" % (path, header["descr"]))
    return list(struct.unpack("<%di" % (len(body) // 4), body))


command, paths = sys.argv[1], sys.argv[2:]
orders = [order(p) for p in paths]
identity = list(range(len(orders[0])))
if command == "identity":
    ok = orders[0] == identity
    print("identity" if ok else "not the identity: %s" % orders[0])
else:
    ok = all(sorted(o) == identity and o != identity for o in orders)
    ok = ok and orders[0] != orders[1]
    print("%d different shuffles of %d workgroups" % (len(orders), len(identity))
          if ok else "not two different shuffles: %s" % orders)
sys.exit(0 if ok else 1)
