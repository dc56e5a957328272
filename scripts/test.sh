#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), then runs the whole test suite: lit
# tests of hk-opt, the gtest unit tests, the installed-package consumer, and
# the formatting check (scripts/check-format.sh, counted as one test).
# Ends with "N passed, N failed"; exits non-zero if anything failed.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" || { echo "0 passed, 1 failed (setup/build)"; exit 1; }

. "$root/scripts/common.sh"
run_lit "$build"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
if "$root/scripts/check-format.sh"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)) status=1
fi
echo "$passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
