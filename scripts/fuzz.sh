#!/usr/bin/env bash
# Coverage-guided fuzzing of hk with libFuzzer: builds the targets of fuzz/
# with clang-22 in build-fuzz/ (hk's libraries instrumented with
# -fsanitize=fuzzer-no-link,address,undefined), runs each for SECONDS on one
# core from a seed corpus, and prints executions, coverage and crashes per
# target. Exits non-zero on any crash, leak, sanitizer report or timeout;
# the inputs that caused them are in build-fuzz/findings/<target>/.
#
#   scripts/fuzz.sh 60
#
# Targets: hk-fuzz-ir (IR text through parse, verify, hk-verify-lds and
# hk-to-rocdl-pipeline for gfx950 and gfx1201; seeds: examples/ and the lit
# tests' .mlir files; dictionary fuzz/hk.dict), hk-fuzz-npy (the .npy
# reader; seeds: small arrays of each dtype) and hk-fuzz-launch (the launch
# description reader of hk-run; seeds: what hk-compile writes for the
# examples) and hk-fuzz-args (hk-run's command line, one argument per
# line, parsed and checked as a GEMM run).
set -uo pipefail

seconds=${1:?usage: scripts/fuzz.sh SECONDS}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}

. "$root/scripts/common.sh"
install_missing clang-22 libclang-rt-22-dev || exit 1
"$root/scripts/setup.sh" >/dev/null || exit 1 # the other packages

flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g1"
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DHK_BUILD_TESTS=OFF -DHK_BUILD_FUZZERS=ON \
    "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" \
    "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" >/dev/null ||
    { echo "hk: cannot configure $build" >&2; exit 1; }
fi
targets=(hk-fuzz-ir hk-fuzz-npy hk-fuzz-launch hk-fuzz-args)
ninja -C "$build" -j"$(nproc)" "${targets[@]}" >"$build/build.log" 2>&1 ||
  { tail -30 "$build/build.log"; exit 1; }

# Seed corpora.
seeds="$build/seeds"
rm -rf "$seeds" && mkdir -p "$seeds/hk-fuzz-ir" "$seeds/hk-fuzz-npy" "$seeds/hk-fuzz-launch" "$seeds/hk-fuzz-args"
cp "$root"/fuzz/seeds/hk-fuzz-args/* "$seeds/hk-fuzz-args/"
for chip in gfx950 gfx1201; do
  "$root/build/bin/hk-compile" "$root/examples/gemm_bf16_$chip.mlir" --chip=$chip \
    -o "$seeds/$chip.hsaco" --launch="$seeds/hk-fuzz-launch/$chip.json" ||
    { echo "hk: cannot compile the launch seeds" >&2; exit 1; }
done
find "$root/examples" "$root/test" -name '*.mlir' -size -200k |
  while read -r f; do cp "$f" "$seeds/hk-fuzz-ir/$(echo "$f" | md5sum | cut -c1-16).mlir"; done
python3 "$root/fuzz/make-npy-seeds.py" "$seeds/hk-fuzz-npy"

export ASAN_OPTIONS="detect_leaks=1:allow_user_poisoning=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
total=0
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t" findings="$build/findings/$t"
  rm -rf "$findings" && mkdir -p "$corpus" "$findings"
  dict=()
  [ "$t" = hk-fuzz-ir ] && dict=(-dict="$root/fuzz/hk.dict")
  log="$build/$t.log"
  "$build/fuzz/$t" "$corpus" "$seeds/$t" "${dict[@]}" -max_total_time="$seconds" \
    -timeout=30 -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$findings/" >"$log" 2>&1
  rc=$?
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
  crashes=$(find "$findings" -type f | wc -l)
  total=$((total + ${execs:-0}))
  echo "hk: $t: ${execs:-0} executions, coverage ${cov:-0} edges, $crashes crashes (exit $rc)"
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    status=1
    grep -E "ERROR|SUMMARY|==[0-9]+==" "$log" | head -10
  fi
done
echo "hk: $total executions in total"
exit "$status"
