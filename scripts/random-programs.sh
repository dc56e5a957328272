#!/usr/bin/env bash
# Differential random testing: N random hk GEMM programs (tiles, wave grids,
# swizzles, chips) with random pipeline options and sizes, each compiled and
# run on the simulator against the fp64 reference, the double-buffered ones
# also bit for bit against their synchronous compilation. Prints the counts
# of passed, refused (a clear diagnostic) and failed programs; keeps every
# failing program with its command line in build/random-programs/; exits
# non-zero on a wrong result or a crash.
#
#   scripts/random-programs.sh 200 [--seed S]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" >/dev/null
exec python3 "$root/scripts/random-programs.py" "$@"
