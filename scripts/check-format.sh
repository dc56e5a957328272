#!/usr/bin/env bash
# Checks that every tracked C and C++ file is as clang-format (Debian 12's,
# version 14, with the repository's .clang-format) writes it; lists the files
# that are not and exits 1. With --fix, formats them instead.
#
#   scripts/check-format.sh          # check (scripts/test.sh runs this)
#   scripts/check-format.sh --fix    # rewrite the files in place
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/common.sh"
install_missing clang-format || exit 1
cd "$root" || exit 1
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.c')
if [ "${#files[@]}" -eq 0 ]; then
  echo "hk: check-format: no tracked C++ files (not a git checkout?)" >&2
  exit 1
fi
if [ "${1:-}" = --fix ]; then
  clang-format -i "${files[@]}"
  exit $?
fi
unformatted=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
done
if ((${#unformatted[@]})); then
  printf 'hk: not clang-formatted: %s\n' "${unformatted[@]}"
  echo "hk: check-format: ${#unformatted[@]} of ${#files[@]} files differ (scripts/check-format.sh --fix)"
  exit 1
fi
echo "hk: check-format: ${#files[@]} files formatted"
