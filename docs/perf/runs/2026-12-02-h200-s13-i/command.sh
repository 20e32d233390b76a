#!/usr/bin/env bash
# Last check of the thirteenth session: binaries of the commit given as $1 in c13i.tar.xz
# (the session's final code). CTest without the suites s13-h already ran on this code
# (test_sort_radix_gpu, test_sort_gpu) and without the long CPU-only suites CI runs
# (their code did not change since s13-final's whole suite), plus test_dist_gpu p1.
set -u
O=$OUT/out.txt
tar xf c13i.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >>$O
GPUPRIMS_DIST_TIMEOUT=60 timeout 60 $B/test_dist_gpu p1 >/tmp/dist.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 /tmp/dist.log))" >>$O
timeout 200 ctest --test-dir $B -j 4 --output-on-failure --timeout 180 \
  -E "cli_install|test_sort_radix_gpu$|test_sort_gpu|test_sort_cpu|test_reduce_cpu|test_reduce_gpu|test_dist_combine|test_argreduce$|test_psort_math|test_integrate_cpu" >/tmp/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" /tmp/ctest.log >>$O
grep -E "Test +#" /tmp/ctest.log | awk '{print $4, $(NF-2), $(NF-1)}' | tr '\n' ';' >>$O
