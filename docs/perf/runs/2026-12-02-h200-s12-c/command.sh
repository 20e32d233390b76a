#!/usr/bin/env bash
# Third GPU call of the twelfth session: binaries of the commit given as $1 (Release,
# sm_90) in c12c.tar.xz. The integrate tests with the fitted rent model; the sort tests
# after AUTO's new crossover for 8-byte keys alone; then the crossover itself at 2^16 ..
# 2^20 (u64, i64, f64: AUTO / bitonic / radix beside CUB) and u32 at 2^11 .. 2^13 by
# each algorithm. Everything lands in $OUT/out.txt.
set -u
T0=$SECONDS
O=$OUT/out.txt
s() { echo "[$((SECONDS - T0))s] $*" >>$O; }
tar xf c12c.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; cat /proc/loadavg; } >>$O
s tests
export GPUPRIMS_CACHE_DIR=/tmp/gpk_tests
GP_TEST_QUICK=1 timeout 280 ctest --test-dir $B -j 4 -R "integrate|test_sort_gpu|test_sort_radix_gpu$|test_sort_errors|test_sort_cpu" --output-on-failure --timeout 250 >/tmp/ctest.log 2>&1
echo "ctest (GP_TEST_QUICK=1) exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" /tmp/ctest.log >>$O
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 120 python3 -m pytest -q -p no:cacheprovider tests -k "sort or integrate") >/tmp/pytest.log 2>&1
echo "pytest -k 'sort or integrate' exit $? ($(tail -1 /tmp/pytest.log))" >>$O
s "sort crossover"
for t in u64 i64 f64; do for algo in auto bitonic radix; do
  timeout 60 $B/gpuprims bench sort --dtype $t --algo $algo --sizes 2^16,2^17,2^18,2^19,2^20 --no-seed --no-segments --max-time 0.3 --quiet >>$O 2>&1
done; done
for algo in auto bitonic radix; do
  timeout 60 $B/gpuprims bench sort --dtype u32 --algo $algo --sizes 2^11,2^12,2^13 --no-seed --no-segments --max-time 0.3 --quiet >>$O 2>&1
done
s done
