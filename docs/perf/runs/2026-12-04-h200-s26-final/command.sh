#!/usr/bin/env bash
# s26-final (2026-12-04, twenty-sixth session): binaries of $1. The whole CTest suite at
# -j 4 (-E cli_install: it needs the source install; pytest runs inside), memcheck of the
# radix test (quick), the whole-GPU rank sort's thresholds as committed (AUTO u32 keys
# 2^10 .. 2^12 with 3072 and 3584, two rounds; pairs and argsorts), the digit-width trial
# once more (its match step now from radix_match.cuh), and the small sorts from Python
# beside torch (issue 14).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s26f.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 330 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 300 >$R/ctest.log 2>&1
echo "ctest exit $? [$((SECONDS - T0))s]" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
pack
GP_TEST_QUICK=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$R/memcheck_radix.log 2>&1
echo "memcheck test_sort_radix_gpu (quick 1) exit $? ($(grep -h SUMMARY $R/memcheck_radix.log | tail -1); $(grep -h passed $R/memcheck_radix.log | tail -1)) [$((SECONDS - T0))s]" >>$O
pack
Q="--no-seed --no-segments --quiet --max-time 0.2"
for r in 1 2; do
  timeout 60 $B/gpuprims bench sort --algo auto --sizes 2^10,2^11,3000,3072,3584,2^12 $Q >$R/u32_gpuprims_r$r.txt 2>&1
done
timeout 60 $B/gpuprims bench sort --algo auto --pairs u32 --sizes 2^10,2^11,2^12 $Q >$R/p32.txt 2>&1
timeout 60 $B/gpuprims bench sort --algo auto --dtype f32 --argsort --sizes 2^9,2^10,2^11,2^12 $Q >$R/arg.txt 2>&1
timeout 60 $B/radix_digits_bench --log2 20 --rounds 3 >$R/digits.txt 2>&1
echo "benches [$((SECONDS - T0))s]" >>$O; pack
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 120 python3 -m gpuprims.bench --suites sort,argsort --sizes 2048,4096,8192,32768,65536 --json $R/python.json) >$R/python.txt 2>&1
echo "python bench exit $? [$((SECONDS - T0))s]" >>$O
echo "[$((SECONDS - T0))s] done" >>$O; pack
