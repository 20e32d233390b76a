#!/usr/bin/env bash
# First GPU call of the seventh session (2026-12-02): binaries of the commit in
# summary.txt (Release, sm_90) carried as gpubin.tar.xz (scripts/pack_gpubin.sh). On the
# fresh host first: the exact-SUM baseline beside CUB, ncu of the exact-SUM kernel, the
# integrate JIT with and without GPUPRIMS_JIT_FAST; then the whole CTest suite at -j 4
# with compute-sanitizer over the sort suites beside it, then pytest -rs.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf gpubin.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s reduce
timeout 90 $B/gpuprims bench reduce --max-time 0.3 --quiet --dtype f32,f64 --op sum \
  --n 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28,2^30 --json $L/reduce_sum.json >$L/reduce_sum.txt 2>&1
echo "reduce exit $?" >>$OUT/summary.txt
s ncu
for c in "f64 2^16" "f64 2^20" "f32 2^20"; do set -- $c
  timeout 60 ncu --clock-control none --set full -k regex:gp_sum_exact -c 1 \
    $B/gpuprims bench reduce --quiet --dtype $1 --op sum --n $2 --no-peers --min-samples 1 --max-samples 1 --warmup 0 \
    >$L/ncu_$1_${2#2^}.txt 2>&1
done
s jit
for f in default mid max; do
  d=$(mktemp -d); [ $f = default ] && v= || v=$f
  GPUPRIMS_JIT_FAST=$v GPUPRIMS_CACHE_DIR=$d timeout 60 $B/gpuprims bench integrate --expr "sin(x)^2" \
    --sizes 2^20,2^24,2^28 --no-peers --max-time 0.5 --quiet --json $L/jit_$f.json >$L/jit_$f.txt 2>&1
  echo "jit $f exit $?" >>$OUT/summary.txt
done
GPUPRIMS_JIT_FAST=mid GPUPRIMS_CACHE_DIR=$(mktemp -d) timeout 120 $B/test_integrate_gpu >$L/integrate_mid.log 2>&1
echo "test_integrate_gpu under JIT_FAST=mid exit $? ($(tail -1 $L/integrate_mid.log))" >>$OUT/summary.txt
s "ctest + sanitizers"
san() { GP_TEST_QUICK=$3 timeout $4 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1
  echo "$1 $2 (GP_TEST_QUICK=$3): exit $? ($(tail -1 $L/san_$1_$2.log))"; }
export -f san; export B L
{ printf '%s\n' "racecheck test_sort_gpu 1 380" "memcheck test_sort_gpu 1 300" "synccheck test_sort_gpu 1 300" \
  "memcheck test_sort_radix_gpu 2 300" "racecheck test_sort_radix_gpu 2 300" "synccheck test_sort_radix_gpu 2 300" \
  "memcheck test_topk_gpu 1 200" | xargs -P 7 -L 1 bash -c 'san "$@"' _ >$L/san_summary.txt 2>&1; } &
SP=$!
timeout 420 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 320 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$OUT/summary.txt
s pytest
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 80 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1
echo "pytest exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$OUT/summary.txt
s "waiting for sanitizers"
wait $SP
cat $L/san_summary.txt >>$OUT/summary.txt
s done
save
