#!/usr/bin/env bash
# On the GPU machine, for branch seg-composite (not yet run on a GPU): the composite sort
# of many large segments by offsets. Builds for sm_90 into build-gpu unless GP_BUILD_DIR
# names carried binaries, runs the radix sort suite (its "many-large" cases use host and
# device offsets), memcheck of it in quick mode, and the offsets bench beside CUB (the
# `large` kind: 821 segments of 8192..32768 keys, which main sorts one by one and CUB did
# in 704.86 us on 2026-12-01). Merge into main only if all three are clean.
#   scripts/verify_seg_composite.sh        (logs and summary.txt in $OUT)
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${GP_BUILD_DIR:-build-gpu}
if [ -z "${GP_BUILD_DIR:-}" ]; then
  { cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 &&
    cmake --build $B -j "$(nproc)"; } >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
fi
timeout 300 ctest --test-dir $B -R "sort_radix_gpu|radix_scratch|topk_rows" --output-on-failure \
  --timeout 290 >"$OUT/ctest.log" 2>&1
echo "ctest exit $?" | tee -a "$OUT/summary.txt"
GP_TEST_QUICK=1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 \
  $B/test_sort_radix_gpu >"$OUT/memcheck.log" 2>&1
echo "memcheck exit $? ($(tail -1 "$OUT/memcheck.log"))" | tee -a "$OUT/summary.txt"
timeout 120 $B/gpuprims bench sort --max-time 0.3 --quiet --offsets large,uniform,powerlaw,tiny \
  --sizes 2^11 --no-seed --no-segments --json "$OUT/sort_offsets.json" >"$OUT/sort_offsets.txt" 2>&1
echo "bench exit $?" | tee -a "$OUT/summary.txt"
grep -E "segments" "$OUT/sort_offsets.txt" | tee -a "$OUT/summary.txt"
