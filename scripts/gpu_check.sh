#!/usr/bin/env bash
# On the GPU machine: build, run every test (none may skip), compute-sanitizer over the
# GPU tests, then the benchmarks. Logs go to $OUT (or ./out). Usage:
#   scripts/gpu_check.sh [build|test|sanitize|bench|all]...
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=build-gpu
steps=${*:-all}
has() { [[ " $steps " == *" $1 "* || " $steps " == *" all "* ]]; }

if has build; then
  cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
  cmake --build $B -j "$(nproc)" >"$OUT/build.log" 2>&1 || { grep -E "error|Error" -A3 "$OUT/build.log" | head -60; exit 1; }
  echo "build: ok"
fi
if has test; then
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$OUT/gpu.txt" 2>&1
  ctest --test-dir $B --output-on-failure -j 4 --timeout 900 >"$OUT/ctest.log" 2>&1
  tail -25 "$OUT/ctest.log"
  grep -iE "skipped|not run" "$OUT/ctest.log" | head
fi
if has sanitize; then
  : >"$OUT/sanitize.log"
  for t in $B/test_gpu_kernels; do
    for tool in memcheck racecheck synccheck; do
      echo "== $tool $t" >>"$OUT/sanitize.log"
      GP_TEST_LARGE=0 GP_TEST_QUICK=1 timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 "$t" >>"$OUT/sanitize.log" 2>&1
      echo "$tool $(basename $t): exit $?" | tee -a "$OUT/sanitize.summary"
    done
  done
fi
if has bench; then
  $B/gpuprims info | tee "$OUT/info.txt"
  $B/gpuprims bench reduce --json "$OUT/bench_reduce.json" 2>"$OUT/bench_reduce.err" | tee "$OUT/bench_reduce.txt"
fi
