#!/usr/bin/env bash
# On the GPU machine: build for sm_90 into build-gpu (kept between calls while the
# machine stays warm), then run the whole CTest suite (no GPU test may skip), the GPU
# tests again with GPUPRIMS_FORCE_ARCH=80 (the pre-Hopper fallbacks), and
# compute-sanitizer over the GPU tests in quick mode. Logs go to $OUT. Usage:
# GP_CTEST_ARGS adds ctest options (e.g. -E cli_install where the build tree is absent).
#   scripts/gpu_verify.sh [build] [test] [force] [sanitize] [dist] [large]   (default: first four)
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
steps=${*:-build test force sanitize}
has() { [[ " $steps " == *" $1 "* ]]; }
T0=$SECONDS
stamp() { echo "[$((SECONDS - T0))s] $*" | tee -a "$OUT/summary.txt"; }
B=${GP_BUILD_DIR:-build-gpu}

if has build; then
  stamp build
  { cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 &&
    cmake --build $B -j "$(nproc)"; } >"$OUT/build.log" 2>&1 ||
    { tail -60 "$OUT/build.log"; stamp "build FAILED"; exit 1; }
  { date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
    $B/gpuprims info; } >"$OUT/info.txt" 2>&1
fi
if has test; then
  stamp tests
  timeout 420 ctest --test-dir $B -j 4 --output-on-failure --timeout 300 ${GP_CTEST_ARGS:-} >"$OUT/ctest.log" 2>&1
  echo "ctest: exit $?" | tee -a "$OUT/summary.txt"
  grep -E "tests passed|Skipped|Failed|\*\*\*" "$OUT/ctest.log" | tee -a "$OUT/summary.txt"
fi
if has force; then
  stamp "force arch 80"
  GPUPRIMS_FORCE_ARCH=80 GP_TEST_QUICK=1 timeout 300 ctest --test-dir $B -j 4 -R "gpu|force|threads" \
    --output-on-failure --timeout 200 >"$OUT/ctest_sm80.log" 2>&1
  echo "ctest FORCE_ARCH=80: exit $?" | tee -a "$OUT/summary.txt"
  grep -E "tests passed|Skipped|Failed|\*\*\*" "$OUT/ctest_sm80.log" | tee -a "$OUT/summary.txt"
fi
if has sanitize; then
  stamp sanitize
  : >"$OUT/sanitize.log"
  for t in test_sort_radix_gpu test_reduce_exact_gpu test_reduce_segments_gpu test_argreduce_gpu \
           test_topk_gpu test_host_memory_gpu test_integrate_gpu; do
    GP_TEST_QUICK=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/$t \
      >>"$OUT/sanitize.log" 2>&1
    echo "memcheck $t: exit $?" | tee -a "$OUT/summary.txt"
  done
  for t in test_sort_radix_gpu; do # (test_reduce_exact_gpu's racecheck runs past 90 s)
    GP_TEST_QUICK=2 timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 $B/$t \
      >>"$OUT/sanitize.log" 2>&1
    echo "racecheck $t: exit $?" | tee -a "$OUT/summary.txt"
  done
fi
if has dist; then
  stamp "dist p1"
  GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >"$OUT/dist_p1.log" 2>&1
  echo "test_dist_gpu p1: exit $?" | tee -a "$OUT/summary.txt"
  tail -2 "$OUT/dist_p1.log" | tee -a "$OUT/summary.txt"
fi
if has large; then
  stamp large
  GP_TEST_QUICK=1 GP_TEST_LARGE=1 timeout 200 $B/test_sort_radix_gpu >"$OUT/large.log" 2>&1
  echo "test_sort_radix_gpu GP_TEST_QUICK=1 GP_TEST_LARGE=1: exit $?" | tee -a "$OUT/summary.txt"
fi
stamp done
