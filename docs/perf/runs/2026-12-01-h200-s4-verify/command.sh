#!/usr/bin/env bash
# First GPU call of the fourth session (2026-12-01): binaries built on the dev box
# (Release, sm_90, HEAD 1f33c40 + the G == 1 vector path in gp_seg_group_kernel), carried
# as gpubin.tar.xz. CPU table first on an idle host; then the sanitizers over the GPU
# suites not sanitized on their final code, beside the full CTest suite; then
# FORCE_ARCH=80, pytest -rs, and the short-rows sweep.
set -u
T0=$SECONDS
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; }
tar xf gpubin.tar.xz
B=build; G=$B/gpuprims; L=$OUT/logs; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>$OUT/summary.txt
s cpu; uptime >>$OUT/summary.txt
timeout 120 python3 bench/numpy_cpu.py --lib $B/libgpuprims.so --reps 5 --json $L/cpu.json --md $L/cpu.md >$L/cpu.txt 2>&1
echo "cpu bench exit $?" >>$OUT/summary.txt
s "sanitize + ctest"
san() { GP_TEST_QUICK=1 timeout $3 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1; echo "$1 $2: exit $?"; }
export -f san; export B L
{ echo "racecheck test_reduce_exact_gpu 520"
  for t in test_reduce_segments_gpu test_topk_gpu test_argreduce_gpu; do
    for tool in memcheck racecheck synccheck; do echo "$tool $t 400"; done; done
} | xargs -P 5 -L 1 bash -c 'san "$@"' _ >$L/san_summary.txt 2>&1 &
SP=$!
timeout 500 ctest --test-dir $B -j 4 --output-on-failure --timeout 300 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$OUT/summary.txt
s "force 80"
GPUPRIMS_FORCE_ARCH=80 GP_TEST_QUICK=1 timeout 150 ctest --test-dir $B -j 4 -R "gpu|force|threads" --output-on-failure --timeout 140 >$L/ctest_sm80.log 2>&1
echo "ctest FORCE_ARCH=80 exit $?" >>$OUT/summary.txt
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest_sm80.log >>$OUT/summary.txt
s pytest
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 120 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1
echo "pytest exit $? ($(tail -1 $L/pytest.log))" >>$OUT/summary.txt
grep -c '^SKIPPED' $L/pytest.log >>$OUT/summary.txt
s rows
timeout 30 $G bench reduce --max-time 0.15 --quiet --dtype f32,f64 --op sum --n 2^26 --rows 1,2,4,8,16,32,64,1024 --json $L/rows.json >$L/rows.txt 2>&1
s "wait sanitize"
wait $SP
cat $L/san_summary.txt >>$OUT/summary.txt
for f in $L/san_*.log; do grep -q "ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards" $f || { echo "== $f"; tail -12 $f; } >>$L/san_failures.txt; done
s done
tar czf $OUT/logs.tgz -C $OUT logs && rm -rf $L
