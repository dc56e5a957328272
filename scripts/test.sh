#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), then runs the whole test suite: lit
# tests of hk-opt, the gtest unit tests, the installed-package consumer.
# Ends with "N passed, N failed"; exits non-zero if anything failed.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" || { echo "0 passed, 1 failed (setup/build)"; exit 1; }

log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv "$build/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# lit's summary: "  Passed: 25 (100.00%)", or "  Passed     : 64" when
# other lines (Unsupported) widen the column.
count() { sed -nE "s/^ +($1) *: +([0-9]+).*/\2/p" "$log" | awk '{n += $1} END {print n + 0}'; }
passed=$(count 'Passed|Expectedly Failed')
failed=$(count 'Failed|Unresolved|Timed Out|Unexpectedly Passed')
rm -f "$log"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "$passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
