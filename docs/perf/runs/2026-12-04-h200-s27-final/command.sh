#!/usr/bin/env bash
# s27-final (2026-12-04, twenty-seventh session): binaries of $1 (the session's last code:
# gp_sort_copy, the Python sort/argsort paths, the bench's timer). The whole CTest suite
# at -j 4 (-E cli_install: it needs the source install; pytest runs inside), memcheck of
# the radix test (quick), racecheck and synccheck of gp_sort_copy's two one-launch
# kernels (bench --copy at 3000 and 20000 keys, few samples), one more Python round,
# and the other Python suites (rows, top-k, overhead) under the new timer.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s27final.tar.xz
B=build; PY=$(realpath python); LIBP=$(realpath build)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; uptime; } >$O
timeout 330 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 300 >$R/ctest.log 2>&1
echo "ctest exit $? [$((SECONDS - T0))s]" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
pack
GP_TEST_QUICK=1 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$R/memcheck_radix.log 2>&1
echo "memcheck test_sort_radix_gpu (quick 1) exit $? ($(grep -h SUMMARY $R/memcheck_radix.log | tail -1); $(grep -h passed $R/memcheck_radix.log | tail -1)) [$((SECONDS - T0))s]" >>$O
pack
for tool in racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $B/gpuprims bench sort --copy --algo auto --sizes 3000,20000 --no-segments --no-peers --warmup 0 --min-samples 2 --max-samples 2 --quiet >$R/${tool}_copy.log 2>&1
  echo "$tool bench sort --copy exit $? ($(grep -h SUMMARY $R/${tool}_copy.log | tail -1)) [$((SECONDS - T0))s]" >>$O
done
pack
(cd /tmp && GPUPRIMS_LIBRARY=$LIBP PYTHONPATH=$PY timeout 120 python3 -m gpuprims.bench --suites sum,sort,argsort --sizes 2048,4096,8192,16384,32768,65536,1048576 --json $R/py.json) >$R/py.txt 2>&1
echo "python bench exit $? [$((SECONDS - T0))s]" >>$O; pack
# the other Python targets (rows sort, top-k, top-k of rows, the binding) under the new timer
(cd /tmp && GPUPRIMS_LIBRARY=$LIBP PYTHONPATH=$PY timeout 200 python3 -m gpuprims.bench --suites rows,topk_rows,topk,overhead --json $R/py_more.json) >$R/py_more.txt 2>&1
echo "python bench (rows, topk, overhead) exit $? [$((SECONDS - T0))s]" >>$O
echo "[$((SECONDS - T0))s] done" >>$O; pack
